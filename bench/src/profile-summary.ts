/**
 * `tsx src/profile-summary.ts <file.cpuprofile>…`: prints the heaviest functions and packages of
 * server CPU profiles written by `pnpm bench --profile` (into bench/results/tmp/profiles).
 */
import { summarizeCpuProfile } from './report/cpu-profile-summary';

for (const path of process.argv.slice(2)) {
  const summary = summarizeCpuProfile(path, Number(process.env.PROFILE_TOP ?? 25));
  process.stdout.write(
    `${path} (${summary.durationSec} s, ${summary.idlePercent}% idle; shares of busy time)\n  packages:\n`,
  );
  for (const entry of summary.topPackages) {
    process.stdout.write(`    ${entry.selfPercent.toFixed(1).padStart(5)}%  ${entry.name}\n`);
  }
  process.stdout.write("  functions, inclusive (the flame graph's widest frames):\n");
  for (const entry of summary.topInclusive) {
    process.stdout.write(`    ${entry.selfPercent.toFixed(1).padStart(5)}%  ${entry.name}\n`);
  }
  process.stdout.write('  sources (npm package or server file, through the source maps), self:\n');
  for (const entry of summary.topSources) {
    process.stdout.write(`    ${entry.selfPercent.toFixed(1).padStart(5)}%  ${entry.name}\n`);
  }
  process.stdout.write('  sources, inclusive:\n');
  for (const entry of summary.topSourcesInclusive) {
    process.stdout.write(`    ${entry.selfPercent.toFixed(1).padStart(5)}%  ${entry.name}\n`);
  }
  process.stdout.write('  functions, self:\n');
  for (const entry of summary.topFunctions) {
    process.stdout.write(`    ${entry.selfPercent.toFixed(1).padStart(5)}%  ${entry.name}\n`);
  }
}
