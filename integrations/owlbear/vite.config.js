// Two pages: the background page holding the connection, the popover. public/ holds the
// manifest and icon, copied as they are. The client library is imported from
// ../../clients/js by relative path and bundled in.
import { resolve } from "node:path";
import { defineConfig } from "vite";

const OWLBEAR = "https://www.owlbear.rodeo";

export default defineConfig({
  build: {
    outDir: "dist",
    emptyOutDir: true,
    rollupOptions: {
      input: {
        background: resolve(import.meta.dirname, "background.html"),
        popover: resolve(import.meta.dirname, "popover.html"),
      },
    },
  },
  // Owlbear fetches the manifest and loads the pages from its own origin.
  server: { cors: { origin: OWLBEAR } },
  preview: { cors: { origin: OWLBEAR } },
});
