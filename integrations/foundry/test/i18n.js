// The module's strings in English for the tests, as Foundry hands them over at
// `i18nInit` (main.js): lang/en.json through `dictionary`, which formats as Foundry's
// Localization#format. Importing this file switches the module to English.

import { readFileSync } from "node:fs";

import { dictionary, useI18n } from "../src/i18n.js";

/** lang/en.json's strings. */
export const EN = JSON.parse(readFileSync(new URL("../lang/en.json", import.meta.url), "utf8"));

useI18n(dictionary(EN));
