// The fight's log: the bridge's events in their game's words, for the combat tracker.
//
// The words are the bridge's (its description of the fight's ruleset: each event kind's
// template, filled in with the token names this user may see and the dice arithmetic),
// so a ruleset added on the bridge reads in its own words with no edit to the module.
// Events are kept and worded when shown: a fight's first events may arrive before its
// description does, and read once it has.

/** How many events the log keeps (the tracker shows the last few). */
export const KEPT_EVENTS = 200;

/** The latest events of this table, worded on demand. */
export class FightLog {
  /**
   * @param {(event: {kind: string, data: any}) => string | null} describe an event's line
   *   (`client.describeEvent`), null while its words are not known
   */
  constructor(describe) {
    this.describe = describe;
    /** @type {Array<{kind: string, data: any}>} oldest first */
    this.events = [];
  }

  /** An event from the bridge (the client's `event` callback). */
  add(event) {
    this.events.push(event);
    this.events.splice(0, this.events.length - KEPT_EVENTS);
  }

  /** The last `count` lines that have words, oldest first. @param {number} count */
  lines(count) {
    const lines = [];
    for (let i = this.events.length - 1; i >= 0 && lines.length < count; i--) {
      const line = this.describe(this.events[i]);
      if (line !== null) lines.unshift(line);
    }
    return lines;
  }
}
