// One readable line per event for the log, in its game's words.  The page words no event
// itself: the server's description of the fight's ruleset (or, with no fight, the words
// every game shares) holds a template per event kind, and the client library renders it
// with the tokens' names and the dice arithmetic (client.describeEvent).

/**
 * @param {import("/client/src/index.js").BridgeClient} client
 * @param {{kind: string, data: Record<string, any>}} event
 * @param {string | undefined} ruleset the fight's ruleset when the event came (a log
 *   keeps an earlier fight's lines in that fight's words)
 * @returns {string}
 */
export function describe(client, event, ruleset) {
  // A game's own kind before its description arrived: shown raw until the "ruleset"
  // callback words the log again.
  return client.describeEvent(event, ruleset) ?? `${event.kind} ${JSON.stringify(event.data)}`;
}
