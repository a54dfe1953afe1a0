// ajv-validate.mjs — the ajv reference of scripts/bench-ajv.sh: checks every
// line of JSONL files against eval752's own JSON Schemas (static/schemas/,
// draft 2020-12) with ajv 8 + ajv-formats, one JSON.parse and one validate
// call per line, single-threaded, and prints the counts.
//
// usage: AJV_DIR=/tmp/dir node scripts/ajv-validate.mjs SCHEMA.json FILE.jsonl [SCHEMA.json FILE.jsonl]...
//   AJV_DIR is a folder where `npm install ajv@8 ajv-formats@3` was run (it
//   is not part of the repository; scripts/bench-ajv.sh makes one in /tmp).
//
// Options match the product's check: draft 2020-12, formats asserted,
// allErrors (eval752 reports every violation of a line, not the first).
import { createRequire } from "node:module";
import { openSync, readSync, closeSync, readFileSync } from "node:fs";
import { join } from "node:path";

const dir = process.env.AJV_DIR;
if (!dir) {
  console.error("AJV_DIR is not set (a folder with ajv and ajv-formats installed)");
  process.exit(2);
}
const require = createRequire(join(dir, "package.json"));
const Ajv2020 = require("ajv/dist/2020").default;
const addFormats = require("ajv-formats").default;

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 2 !== 0) {
  console.error("usage: node ajv-validate.mjs SCHEMA.json FILE.jsonl [SCHEMA.json FILE.jsonl]...");
  process.exit(2);
}

const ajv = new Ajv2020({ allErrors: true, strict: false });
addFormats(ajv);

let total = { lines: 0, valid: 0, invalid: 0, syntax: 0, errors: 0 };
for (let a = 0; a < args.length; a += 2) {
  const validate = ajv.compile(JSON.parse(readFileSync(args[a], "utf8")));
  const c = { lines: 0, valid: 0, invalid: 0, syntax: 0, errors: 0 };
  const check = (text) => {
    if (text.trim() === "") return;
    c.lines++;
    let v;
    try {
      v = JSON.parse(text);
    } catch {
      c.syntax++;
      return;
    }
    if (validate(v)) c.valid++;
    else {
      c.invalid++;
      c.errors += validate.errors.length;
    }
  };
  // read in 1 MiB blocks and cut whole lines (faster than readline)
  const fd = openSync(args[a + 1], "r");
  const block = Buffer.allocUnsafe(1 << 20);
  let rest = Buffer.alloc(0);
  for (;;) {
    const n = readSync(fd, block, 0, block.length, null);
    if (n === 0) break;
    const buf = rest.length ? Buffer.concat([rest, block.subarray(0, n)]) : block.subarray(0, n);
    let start = 0;
    for (let i = buf.indexOf(10, start); i >= 0; i = buf.indexOf(10, start)) {
      check(buf.toString("utf8", start, i));
      start = i + 1;
    }
    rest = Buffer.from(buf.subarray(start));
  }
  if (rest.length) check(rest.toString("utf8"));
  closeSync(fd);
  console.log(`${args[a + 1]}: ${c.lines} lines, ${c.valid} valid, ${c.invalid} invalid (${c.errors} errors), ${c.syntax} not JSON`);
  for (const k of Object.keys(total)) total[k] += c[k];
}
console.log(`total: ${total.lines} lines, ${total.valid} valid, ${total.invalid} invalid (${total.errors} errors), ${total.syntax} not JSON`);
