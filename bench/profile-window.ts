/**
 * Preloaded into the server by bench/profile.ts (`--import`): the CPU profiler runs only between two SIGUSR2
 * signals, so the profile holds the measured load and not the start-up (migrations, demo seed, CSV import).
 * The second signal writes PROFILE_FILE.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";

const file = process.env.PROFILE_FILE;
if (!file) throw new Error("bench/profile-window.ts: PROFILE_FILE is not set");

const session = new Session();
session.connect();
let running = false;
process.on("SIGUSR2", () => {
  if (!running) {
    session.post("Profiler.enable", () => session.post("Profiler.start"));
    running = true;
    return;
  }
  session.post("Profiler.stop", (error, result) => {
    if (error) throw error;
    writeFileSync(file, JSON.stringify(result.profile));
  });
  running = false;
});
