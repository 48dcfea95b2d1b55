// The background page (manifest `background_url`): holds the bridge connection for as long
// as the room is open, whether or not the popover is.

import OBR from "@owlbear-rodeo/sdk";

import { BridgeClient } from "../../../clients/js/src/index.js";
import { Session } from "./session.js";

if (OBR.isAvailable) {
  OBR.onReady(() => {
    const session = new Session(
      /** @type {any} */ (OBR),
      window.localStorage,
      (settings) => new BridgeClient(settings.url, { token: settings.token, binary: settings.binary }),
      { promptUrl: "/popover.html?view=prompt", log: (m) => console.warn(m) },
    );
    session.start();
  });
} else {
  // Opened outside Owlbear Rodeo (a browser tab, the build's own check): nothing to join.
  document.body.dataset.state = "outside-owlbear";
}
