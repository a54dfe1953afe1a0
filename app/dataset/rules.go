package dataset

import "eval752/app/finding"

// Rules reported while loading (reading, not validating). The JSON, zip,
// format and schema rules live in app/jsonl, app/bundle and app/formats.
var (
	RuleMissingManifest = finding.Register(finding.Rule{
		Code: "bundle.missing-manifest", Severity: finding.Error, Family: "bundle",
		Description: "a bundle has no manifest.json at its root",
		Source:      "seed 004 (.eval752.zip layout: manifest.json 包格式版本和类型)",
		Hint:        `add manifest.json at the bundle root, e.g. {"format_version": 1, "kind": "dataset"}`,
	})
	RuleMissingMeta = finding.Register(finding.Rule{
		Code: "bundle.missing-meta", Severity: finding.Error, Family: "bundle",
		Description: "a bundle has no meta.json at its root",
		Source:      "seed 004 (.eval752.zip layout: meta.json 数据集元数据)",
		Hint:        `add meta.json at the bundle root, e.g. {"name": "my-set", "description": "...", "version_hash": "sha256:..."}`,
	})
	RuleNestedRoot = finding.Register(finding.Rule{
		Code: "bundle.nested-root", Severity: finding.Info, Family: "bundle",
		Description: "the bundle's files sit inside one folder, which is read as the bundle root",
		Source:      "seed 004 (manifest.json, meta.json, sections/ at the root of the zip)",
		Hint:        "zip the folder's contents rather than the folder (cd folder && zip -r ../x.eval752.zip .)",
	})
	RuleResultsBundle = finding.Register(finding.Rule{
		Code: "bundle.results", Severity: finding.Info, Family: "bundle",
		Description: "a zip holding only eval752-results/ (with its manifest.json) is eval752's own results bundle, written by `eval752 results` or the page: its reports are outputs, not a benchmark, so it is hashed and not read",
		Source:      "seed 004 (数据集或结果包: a results package is not a dataset bundle)",
		Hint:        "nothing to do; to check the benchmark, give the files the results were made from",
	})
	RuleOSMetadata = finding.Register(finding.Rule{
		Code: "bundle.os-metadata", Severity: finding.Info, Family: "bundle",
		Description: "files an operating system adds when zipping (__MACOSX/, ._* AppleDouble files, .DS_Store, Thumbs.db, desktop.ini) are hashed but not read; one finding per bundle",
		Source:      "seed 004 (.eval752.zip layout)",
		Hint:        "nothing to do; zip -r -X, or zip -d x.eval752.zip '__MACOSX/*' '*.DS_Store', leaves them out",
	})
	RuleNoSections = finding.Register(finding.Rule{
		Code: "bundle.no-sections", Severity: finding.Warning, Family: "bundle",
		Description: "a dataset bundle has no sections/*.jsonl file",
		Source:      "seed 004 (sections/ 各分区的题目)",
		Hint:        "put the items in sections/<name>.jsonl",
	})
	RuleTooLarge = finding.Register(finding.Rule{
		Code: "input.too-large", Severity: finding.Error, Family: "input",
		Description: "a whole-file JSON document is larger than the line cap; it is not parsed",
		Source:      "spec §6 (huge inputs must not exhaust memory)",
		Hint:        "write large record sets as JSONL (one record a line) or raise Limits.MaxLineBytes",
	})
	RuleEmpty = finding.Register(finding.Rule{
		Code: "input.empty", Severity: finding.Warning, Family: "input",
		Description: "a file holds no records",
		Source:      "spec §3",
		Hint:        "check that the right file was given",
	})
	RuleSkipped = finding.Register(finding.Rule{
		Code: "format.skipped", Severity: finding.Info, Family: "format",
		Description: "a file under corpus/ or runs/ is of no format eval752 reads (anchor_resolution.jsonl, raw_manifest.jsonl, …); it is hashed, not checked",
		Source:      "seed 003 §10 (a run folder also holds files eval752 does not score from)",
		Hint:        "nothing to do; if it is one of eval752's formats, name it in manifest.json files[].format",
	})
	RuleDecode = finding.Register(finding.Rule{
		Code: "format.decode", Severity: finding.Error, Family: "format",
		Description: "a record passed the schema but does not fit the typed model (e.g. a number too large for float64); typed rules and scoring skip it",
		Source:      "app/model (the typed definition of each format)",
		Hint:        "check the field types against docs/formats.md",
	})
	RuleZipFolder = finding.Register(finding.Rule{
		Code: "bundle.plain-zip", Severity: finding.Info, Family: "bundle",
		Description: "a .zip that is not named .eval752.zip and has neither manifest.json nor meta.json is read as a zipped folder of files (e.g. seed 003 §10's data/, eval/, runs/), without the bundle checks",
		Source:      "seed 004 (.eval752.zip 包结构); seed 003 §10 (目录与配置)",
		Hint:        "nothing to do; to publish it as an eval752 bundle, add manifest.json and meta.json and name it .eval752.zip",
	})
	RuleRepeated = finding.Register(finding.Rule{
		Code: "input.repeated", Severity: finding.Info, Family: "input",
		Description: "the same file (same name and content) was given twice; it is read once",
		Source:      "spec §3 (findings are de-duplicated; a record is not its own duplicate)",
		Hint:        "nothing to do; give each file once",
	})
	RuleTRECSyntax = finding.Register(finding.Rule{
		Code: "trec.syntax", Severity: finding.Error, Family: "trec",
		Description: "a TREC qrels/run line does not have the expected columns",
		Source:      "trec_eval conventions: qrels `qid iter docno rel`, run `qid Q0 docno rank score tag`",
		Hint:        "qrels lines have 4 whitespace-separated fields with an integer grade; run lines have 6 with a numeric score",
	})
	RuleYAMLSyntax = finding.Register(finding.Rule{
		Code: "yaml.syntax", Severity: finding.Error, Family: "yaml",
		Description: "a config.yaml line is not a `key: value` mapping line eval752 understands",
		Source:      "seed 003 §10 (config.yaml: a flat mapping of scalars)",
		Hint:        "write one `key: value` per line; quote values that contain ': ' or start with a special character",
	})
	RuleYAMLDuplicate = finding.Register(finding.Rule{
		Code: "yaml.duplicate-key", Severity: finding.Error, Family: "yaml",
		Description: "a config.yaml mapping repeats a key",
		Source:      "YAML 1.2 §3.2.1.1 (mapping keys are unique)",
		Hint:        "remove one of the two keys",
	})
	// RuleYAMLTooDeep caps YAML nesting as JSON's is capped
	// (jsonl.MaxDepth): 20,000 nested mappings cost 2.7 GB before, every
	// level holding its pointer.
	RuleYAMLTooDeep = finding.Register(finding.Rule{
		Code: "yaml.too-deep", Severity: finding.Error, Family: "yaml",
		Description: "config.yaml nests mappings deeper than 512 levels (or its keys' path is longer than 64 KiB); the lines below are skipped",
		Source:      "eval752 reading cap (the same 512 levels as JSON, docs/formats.md § Reading rules); seed 003 §10's config.yaml is flat",
		Hint:        "write the config as a flat mapping of scalars, as seed 003 §10 does",
	})
)
