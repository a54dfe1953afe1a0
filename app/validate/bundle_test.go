package validate

import (
	"eval752/app/dataset"
	"eval752/app/model"
)

// The bundle fixture holds sections/a.jsonl = "x\n" and assets/cat.jpg =
// "y\n". Their sha256 (from `printf 'x\n' | sha256sum`, `printf 'y\n' |
// sha256sum`) and the version hash from the recipe in dataset.VersionHash,
// run with coreutils on those two files:
//
//	find sections assets -type f | LC_ALL=C sort | xargs sha256sum | sha256sum
//	→ 19efe9b8dab19cf33bce53759cbd2d86d64f86436820b364c588b4dbf4d52233
const (
	shaX        = "73cb3858a687a8494ca3323053016282f3dad39d42cf62ca4e79dda2aac7d9ac"
	shaY        = "3bb2abb69ebb27fbfe63c7639624c6ec5e331b841a5bc8c3ebc10b9285e90877"
	versionHash = "sha256:19efe9b8dab19cf33bce53759cbd2d86d64f86436820b364c588b4dbf4d52233"
)

const (
	goodManifest = `{"format_version":1,"kind":"dataset"}`
	goodMeta     = `{"name":"demo","description":"a demo","version_hash":"` + versionHash + `"}`
)

// looseMeta is a meta.json (and manifest.json listing files) given as
// top-level files: the readers keep them on a pseudo-bundle named after the
// folder, with no entries, so there is no content to compare with.
func looseMeta() *dataset.Dataset {
	ds := newDS(model.FormatMeta, model.FormatManifest)
	ds.Bundles = append(ds.Bundles, &dataset.Bundle{
		Path:     "out",
		SHA256:   map[string]string{},
		Manifest: recp[model.Manifest]("out/manifest.json", 0, `{"format_version":1,"kind":"dataset","files":[{"path":"sections/a.jsonl","sha256":"`+shaX+`"}]}`),
		Meta:     recp[model.Meta]("out/meta.json", 0, goodMeta),
	})
	return ds
}

func bundleDS(manifest, meta string) func() *dataset.Dataset {
	return func() *dataset.Dataset {
		ds := newDS(model.FormatBundle, model.FormatManifest, model.FormatMeta)
		b := &dataset.Bundle{
			Path:     "d.eval752.zip",
			Entries:  []string{"manifest.json", "meta.json", "sections/a.jsonl", "assets/cat.jpg"},
			Assets:   []dataset.Asset{{Path: "assets/cat.jpg", Full: "d.eval752.zip!assets/cat.jpg", Size: 2}},
			Sections: []string{"d.eval752.zip!sections/a.jsonl"},
			SHA256: map[string]string{
				"manifest.json":    "1111111111111111111111111111111111111111111111111111111111111111",
				"meta.json":        "2222222222222222222222222222222222222222222222222222222222222222",
				"sections/a.jsonl": shaX,
				"assets/cat.jpg":   shaY,
			},
		}
		if manifest != "" {
			b.Manifest = recp[model.Manifest]("d.eval752.zip!manifest.json", 0, manifest)
		}
		if meta != "" {
			b.Meta = recp[model.Meta]("d.eval752.zip!meta.json", 0, meta)
		}
		ds.Bundles = append(ds.Bundles, b)
		return ds
	}
}

var bundleCases = []ruleCase{
	{name: "kind and version", code: "bundle.manifest-incomplete", ds: bundleDS(goodManifest, goodMeta)},
	{name: "aliases type and version", code: "bundle.manifest-incomplete", ds: bundleDS(`{"version":"1.0","type":"results"}`, goodMeta)},
	{name: "empty manifest", code: "bundle.manifest-incomplete", ds: bundleDS(`{}`, goodMeta),
		want: []string{"d.eval752.zip!manifest.json:0:"}, msg: "does not state kind or format_version"},
	{name: "no manifest at all (the reader reports it)", code: "bundle.manifest-incomplete", ds: bundleDS("", goodMeta)},

	{name: "dataset", code: "bundle.manifest-kind", ds: bundleDS(goodManifest, goodMeta)},
	{name: "plural and prefixed kinds read as dataset", code: "bundle.manifest-kind", ds: bundleDS(`{"format_version":1,"kind":"eval752-datasets"}`, goodMeta)},
	{name: "unknown kind", code: "bundle.manifest-kind", ds: bundleDS(`{"format_version":1,"kind":"weights"}`, goodMeta),
		want: []string{"d.eval752.zip!manifest.json:0:/kind"}},
	{name: "unknown type alias", code: "bundle.manifest-kind", ds: bundleDS(`{"format_version":1,"type":"model"}`, goodMeta),
		want: []string{"d.eval752.zip!manifest.json:0:/type"}},

	{name: "1.2", code: "bundle.manifest-version", ds: bundleDS(`{"format_version":"1.2","kind":"dataset"}`, goodMeta)},
	{name: "2", code: "bundle.manifest-version", ds: bundleDS(`{"format_version":2,"kind":"dataset"}`, goodMeta),
		want: []string{"d.eval752.zip!manifest.json:0:/format_version"}},
	{name: "alias 10", code: "bundle.manifest-version", ds: bundleDS(`{"version":"10","kind":"dataset"}`, goodMeta),
		want: []string{"d.eval752.zip!manifest.json:0:/version"}},

	{name: "manifest.json outside its archive", code: "bundle.manifest-file-missing", ds: looseMeta},
	{name: "listed files exist", code: "bundle.manifest-file-missing",
		ds: bundleDS(`{"format_version":1,"kind":"dataset","files":[{"path":"sections/a.jsonl"},{"path":"./assets/cat.jpg"}]}`, goodMeta)},
	{name: "listed file absent", code: "bundle.manifest-file-missing",
		ds:   bundleDS(`{"format_version":1,"kind":"dataset","files":[{"path":"sections/a.jsonl"},{"path":"sections/b.jsonl"}]}`, goodMeta),
		want: []string{"d.eval752.zip!manifest.json:0:/files/1/path"}},

	{name: "hashes agree (prefix and case tolerated)", code: "bundle.manifest-sha256",
		ds: bundleDS(`{"format_version":1,"kind":"dataset","files":[{"path":"sections/a.jsonl","sha256":"sha256:`+shaX+`"},{"path":"assets/cat.jpg","sha256":"3BB2ABB69EBB27FBFE63C7639624C6EC5E331B841A5BC8C3EBC10B9285E90877"}]}`, goodMeta)},
	{name: "hash differs", code: "bundle.manifest-sha256",
		ds:   bundleDS(`{"format_version":1,"kind":"dataset","files":[{"path":"sections/a.jsonl","sha256":"`+shaY+`"}]}`, goodMeta),
		want: []string{"d.eval752.zip!manifest.json:0:/files/0/sha256"}, msg: "hashes to " + shaX},

	{name: "section listed", code: "bundle.section-unlisted",
		ds: bundleDS(`{"format_version":1,"kind":"dataset","files":[{"path":"sections/a.jsonl"}]}`, goodMeta)},
	{name: "no files list", code: "bundle.section-unlisted", ds: bundleDS(goodManifest, goodMeta)},
	{name: "section not listed", code: "bundle.section-unlisted",
		ds:   bundleDS(`{"format_version":1,"kind":"dataset","files":[{"path":"assets/cat.jpg"}]}`, goodMeta),
		want: []string{"d.eval752.zip!manifest.json:0:/files"}, msg: "sections/a.jsonl"},

	{name: "named", code: "bundle.meta-name", ds: bundleDS(goodManifest, goodMeta)},
	{name: "no name", code: "bundle.meta-name", ds: bundleDS(goodManifest, `{"description":"d"}`),
		want: []string{"d.eval752.zip!meta.json:0:"}},

	{name: "hash matches", code: "bundle.version-hash", ds: bundleDS(goodManifest, goodMeta)},
	{name: "abbreviated hash matches", code: "bundle.version-hash", ds: bundleDS(goodManifest, `{"name":"d","version_hash":"19efe9b8dab1"}`)},
	{name: "stale hash", code: "bundle.version-hash",
		ds:   bundleDS(goodManifest, `{"name":"d","version_hash":"sha256:`+shaX+`"}`),
		want: []string{"d.eval752.zip!meta.json:0:/version_hash"}, msg: "expected " + versionHash},

	{name: "present", code: "bundle.version-hash-missing", ds: bundleDS(goodManifest, goodMeta)},
	{name: "absent", code: "bundle.version-hash-missing", ds: bundleDS(goodManifest, `{"name":"d"}`),
		want: []string{"d.eval752.zip!meta.json:0:"}, msg: versionHash},

	{name: "hex", code: "bundle.version-hash-unverifiable", ds: bundleDS(goodManifest, goodMeta)},
	{name: "meta.json outside its archive", code: "bundle.version-hash-unverifiable", ds: looseMeta,
		want: []string{"out/meta.json:0:/version_hash"}, msg: "given outside its .eval752.zip"},
	{name: "meta.json outside its archive is not a mismatch", code: "bundle.version-hash", ds: looseMeta},
	{name: "label", code: "bundle.version-hash-unverifiable", ds: bundleDS(goodManifest, `{"name":"d","version_hash":"v1.2-release"}`),
		want: []string{"d.eval752.zip!meta.json:0:/version_hash"}},
	// an entry the reader refused (zip bomb, damaged data) was never
	// hashed: the declared hash cannot be checked, and no value suggested
	{name: "refused entry: unverifiable", code: "bundle.version-hash-unverifiable", ds: withUnread(bundleDS(goodManifest, goodMeta)),
		want: []string{"d.eval752.zip!meta.json:0:/version_hash"}, msg: "1 entry of the version could not be read (first: assets/big.bin)"},
	{name: "refused entry: no mismatch", code: "bundle.version-hash", ds: withUnread(bundleDS(goodManifest, goodMeta))},
	{name: "refused entry, no hash: no value suggested", code: "bundle.version-hash-missing", ds: withUnread(bundleDS(goodManifest, `{"name":"d"}`)),
		want: []string{"d.eval752.zip!meta.json:0:"}, msg: "none can be computed"},
}

// withUnread adds an entry the reader refused to the bundle of ds.
func withUnread(ds func() *dataset.Dataset) func() *dataset.Dataset {
	return func() *dataset.Dataset {
		d := ds()
		d.Bundles[0].Entries = append(d.Bundles[0].Entries, "assets/big.bin")
		d.Bundles[0].Unread = []string{"assets/big.bin"}
		return d
	}
}

// resultsDS: a loose item set (q-001, q-002), a bundle holding results.jsonl,
// an optional run_config.json and optional atoms.
func resultsDS(runConfig string, atoms []string, withItems bool, results ...string) func() *dataset.Dataset {
	return func() *dataset.Dataset {
		ds := newDS(model.FormatResult)
		if withItems {
			ds = items(goodMCQ, goodMulti)()
			ds.Has[model.FormatResult] = true
		}
		b := &dataset.Bundle{Path: "r.eval752.zip", SHA256: map[string]string{}}
		if runConfig != "" {
			b.RunConfig = recp[model.RunConfig]("r.eval752.zip!run_config.json", 0, runConfig)
		}
		ds.Bundles = append(ds.Bundles, b)
		for i, a := range atoms {
			ds.Atoms = append(ds.Atoms, rec[model.Atom]("r.eval752.zip!corpus/atoms.jsonl", i+1, `{"atom_id":"`+a+`","source_id":"s"}`))
		}
		for i, r := range results {
			ds.Results = append(ds.Results, rec[model.Result]("r.eval752.zip!results.jsonl", i+1, r))
		}
		return ds
	}
}

const (
	res1 = `{"run":"base","item_id":"q-001","response":"巴黎","retrieved":[{"id":"a1"},{"id":"a2","score":0.5}]}`
	res2 = `{"run":"base","item_id":"q-002","responses":["2","3"]}`
	res3 = `{"run":"new","item_id":"q-001","response":"伦敦"}`
)

var resultCases = []ruleCase{
	{name: "known items", code: "result.unknown-item", ds: resultsDS("", nil, true, res1, res2, res3)},
	{name: "unknown item", code: "result.unknown-item", ds: resultsDS("", nil, true, res1, patch(res2, "item_id", "q-999")),
		want: []string{"r.eval752.zip!results.jsonl:2:/item_id"}},

	{name: "items loaded", code: "result.items-absent", ds: resultsDS("", nil, true, res1)},
	{name: "results alone, once", code: "result.items-absent", ds: resultsDS("", nil, false, res1, res2),
		want: []string{"r.eval752.zip!results.jsonl:0:"}},

	{name: "same item, two runs", code: "result.duplicate", ds: resultsDS("", nil, true, res1, res3)},
	{name: "same run and item twice", code: "result.duplicate", ds: resultsDS("", nil, true, res1, res2, patch(res1, "response", "伦敦")),
		want: []string{"r.eval752.zip!results.jsonl:3:"}, msg: "first at r.eval752.zip!results.jsonl:1"},

	{name: "runs listed", code: "result.run-unlisted", ds: resultsDS(`{"runs":[{"name":"base"},{"name":"new"}]}`, nil, true, res1, res3)},
	{name: "no run_config", code: "result.run-unlisted", ds: resultsDS("", nil, true, res1, res3)},
	{name: "loose results.jsonl and run_config.json of one folder", code: "result.run-unlisted",
		ds: func() *dataset.Dataset {
			ds := items(goodMCQ)()
			ds.Bundles = append(ds.Bundles, &dataset.Bundle{Path: "runs", SHA256: map[string]string{},
				RunConfig: recp[model.RunConfig]("runs/run_config.json", 0, `{"runs":[{"name":"base"}]}`)})
			ds.Results = append(ds.Results, rec[model.Result]("runs/results.jsonl", 1, res1), rec[model.Result]("runs/results.jsonl", 2, res3))
			return ds
		},
		want: []string{"runs/results.jsonl:2:/run"}},
	{name: "run missing from run_config, once", code: "result.run-unlisted",
		ds:   resultsDS(`{"runs":[{"name":"base"}]}`, nil, true, res1, res3, patch(res3, "item_id", "q-002")),
		want: []string{"r.eval752.zip!results.jsonl:2:/run"}},

	{name: "retrieved ids in the table", code: "result.retrieved-unknown", ds: resultsDS("", []string{"a1", "a2"}, true, res1)},
	{name: "no table at all", code: "result.retrieved-unknown", ds: resultsDS("", nil, true, res1)},
	{name: "two unknown ids", code: "result.retrieved-unknown",
		ds:   resultsDS("", []string{"a1", "a2"}, true, patch(res1, "retrieved", raw(`[{"id":"a1"},{"id":"zz"},{"id":"yy"}]`))),
		want: []string{"r.eval752.zip!results.jsonl:1:/retrieved/1"}, msg: `2 of 3 retrieved ids are not in the atom table (first: "zz")`},
	{name: "named table", code: "result.retrieved-unknown",
		ds: resultsDS(`{"runs":[{"name":"base","atoms":"corpus/atoms.jsonl"}]}`, []string{"a1"}, true, res1),
		// a2 is not in corpus/atoms.jsonl
		want: []string{"r.eval752.zip!results.jsonl:1:/retrieved/1"}},

	{name: "verdicts that read as A, B, tie", code: "result.verdict", ds: resultsDS("", nil, true,
		patch(res1, "verdict", "A"), patch(res3, "verdict", "[[B]]"), patch(res1, "item_id", "q-002", "verdict", "平局"))},
	{name: "an unreadable verdict", code: "result.verdict", ds: resultsDS("", nil, true, patch(res1, "verdict", "both")),
		want: []string{"r.eval752.zip!results.jsonl:1:/verdict"}},

	{name: "distinct retrieved ids", code: "result.retrieved-duplicate", ds: resultsDS("", []string{"a1", "a2"}, true, res1)},
	{name: "a retrieved id twice", code: "result.retrieved-duplicate",
		ds:   resultsDS("", []string{"a1", "a2"}, true, patch(res1, "retrieved", raw(`["a1","a2","a1"]`))),
		want: []string{"r.eval752.zip!results.jsonl:1:/retrieved/2"}},

	{name: "named table loaded", code: "result.atom-table-missing",
		ds: resultsDS(`{"runs":[{"name":"base","atoms":"corpus/atoms.jsonl"}]}`, []string{"a1", "a2"}, true, res1)},
	{name: "named table absent", code: "result.atom-table-missing",
		ds:   resultsDS(`{"runs":[{"name":"base","atoms":"corpus/chunks-512.jsonl"}]}`, []string{"a1", "a2"}, true, res1),
		want: []string{"r.eval752.zip!results.jsonl:1:/run"}},

	{name: "scores in descending order, or not all scored", code: "result.scores-order", ds: resultsDS("", []string{"a1", "a2"}, true,
		patch(res1, "retrieved", raw(`[{"id":"a1","score":0.9},{"id":"a2","score":0.9}]`)),
		patch(res3, "retrieved", raw(`[{"id":"a1"},{"id":"a2","score":0.9}]`)))},
	{name: "a score above the one before", code: "result.scores-order", ds: resultsDS("", []string{"a1", "a2"}, true,
		patch(res1, "retrieved", raw(`[{"id":"a1","score":0.2},{"id":"a2","score":0.9}]`))),
		want: []string{"r.eval752.zip!results.jsonl:1:/retrieved/1/score"}, msg: `so "a2" ranks before "a1"`},

	{name: "b-2 results with an atom table", code: "result.no-atom-table", ds: b2ResultsDS([]string{"a1"}, b2res1, b2res2)},
	{name: "eval752 results retrieving without a table", code: "result.no-atom-table", ds: resultsDS("", nil, true, res1)},
	{name: "b-2 results with chunks but no atoms", code: "result.no-atom-table", ds: func() *dataset.Dataset {
		ds := b2ResultsDS(nil, b2res1)()
		ds.Chunks = append(ds.Chunks, rec[model.RAGChunk]("data/chunks.jsonl", 1, `{"chunk_id":"a1","doc_id":"d"}`))
		return ds
	},
		// seed-003 chunks are no atom table for b-2 items
		want: []string{"r.eval752.zip!results.jsonl:1:/retrieved"}},
	{name: "b-2 results without any atom table", code: "result.no-atom-table", ds: b2ResultsDS(nil, b2res1, b2res2, patch(b2res1, "run", "dense")),
		// once per run, at its first retrieving line
		want: []string{"r.eval752.zip!results.jsonl:1:/retrieved", "r.eval752.zip!results.jsonl:3:/retrieved"}},
}

const (
	b2res1 = `{"run":"base","item_id":"b2-1","response":"x","retrieved":[{"id":"a1","score":0.9}]}`
	b2res2 = `{"run":"base","item_id":"b2-2","response":"y","retrieved":["a2"]}`
)

// b2ResultsDS is two b-2 items (b2-1, b2-2) with results and, optionally,
// an atom table.
func b2ResultsDS(atoms []string, results ...string) func() *dataset.Dataset {
	return func() *dataset.Dataset {
		ds := newDS(model.FormatB2, model.FormatResult)
		for i, id := range []string{"b2-1", "b2-2"} {
			ds.B2 = append(ds.B2, dataset.Rec[model.B2]{Loc: testFiles.At("r.eval752.zip!sections/b2.jsonl", i+1, 0), Typed: true, V: model.B2{QueryID: id}})
		}
		ds.Bundles = append(ds.Bundles, &dataset.Bundle{Path: "r.eval752.zip", SHA256: map[string]string{}})
		for i, a := range atoms {
			ds.Atoms = append(ds.Atoms, rec[model.Atom]("r.eval752.zip!corpus/atoms.jsonl", i+1, `{"atom_id":"`+a+`","source_id":"s"}`))
		}
		for i, r := range results {
			ds.Results = append(ds.Results, rec[model.Result]("r.eval752.zip!results.jsonl", i+1, r))
		}
		return ds
	}
}

func trecDS(run []dataset.RunLine, qrels []dataset.Qrel) func() *dataset.Dataset {
	return func() *dataset.Dataset {
		ds := newDS(model.FormatTRECRun, model.FormatTRECQrels)
		ds.Runs = []dataset.RunFile{{Path: "run.txt", Tag: "bm25", Lines: run}}
		ds.Qrels = []dataset.QrelsFile{{Path: "qrels.txt", Judgments: qrels}}
		return ds
	}
}

var trecCases = []ruleCase{
	{name: "one docno per query", code: "trec.run-duplicate-docno",
		ds: trecDS([]dataset.RunLine{{Line: 1, QID: "q1", DocNo: "d1"}, {Line: 2, QID: "q2", DocNo: "d1"}}, nil)},
	{name: "docno twice", code: "trec.run-duplicate-docno",
		ds:   trecDS([]dataset.RunLine{{Line: 1, QID: "q1", DocNo: "d1"}, {Line: 2, QID: "q1", DocNo: "d2"}, {Line: 3, QID: "q1", DocNo: "d1"}}, nil),
		want: []string{"run.txt:3:"}, msg: "first at line 1"},

	{name: "distinct judgments", code: "trec.qrels-duplicate",
		ds: trecDS(nil, []dataset.Qrel{{Line: 1, QID: "q1", DocNo: "d1", Grade: 1}, {Line: 2, QID: "q1", DocNo: "d2", Grade: 0}})},
	{name: "judged twice, grades differ", code: "trec.qrels-duplicate",
		ds:   trecDS(nil, []dataset.Qrel{{Line: 1, QID: "q1", DocNo: "d1", Grade: 1}, {Line: 2, QID: "q1", DocNo: "d1", Grade: 3}}),
		want: []string{"qrels.txt:2:"}, msg: "different grade (3 here, 1 at line 1)"},
}
