package validate

import (
	"strconv"

	"eval752/app/finding"
	"eval752/app/jsonl"
	"eval752/app/model"
)

// Gate 1 for the corpus tables: the id a table's rows are looked up by is
// unique within the file. A repeated id would be resolved to its first row
// only, and a reviewer reading the second would see another record than
// the scorer.

var ruleTableDuplicate = register(finding.Rule{
	Code:        "id.table-duplicate",
	Severity:    finding.Error,
	Description: "Rows of a corpus table are unique by their key within the file: chunk_id (chunks.jsonl), atom_id (atom table), doc_id + document_version_id (documents.jsonl), doc_id + version + page_no (pages.jsonl), source_id + revision (corpus manifest).",
	Source:      "seed 003 §5.6 (chunk_id 唯一); seed 000 §2 constraint 7 (manifest entries); SPEC §3 gate 1",
	Hint:        "Keep one row per key; a repeated key is resolved to its first row only.",
	Family:      "ids",
})

var ruleObservedAt = register(finding.Rule{
	Code:        "id.observed-at",
	Severity:    finding.Error,
	Description: "An atom's or chunk's observed_at is a timestamp read exactly as as_of is (RFC 3339 with a UTC offset; a lower-case t/z and an offset written +0800 are accepted).",
	Source:      "seed 000 §2 constraint 4 (observed_at 晚于 as_of 时不得作为 gold 命中)",
	Hint:        "Write e.g. \"2024-01-01T00:00:00+00:00\"; an unreadable observed_at cannot be ordered against as_of.",
	Family:      "ids",
})

// tableKey is one row's key, the pointer of its (first) key field, and a
// name for messages.
type tableKey struct {
	key, pointer, what string
}

func (c *checker) checkTables() {
	check := func(path string, line int, k tableKey, first map[string]map[string]int) {
		if k.key == "" {
			return // the schema reports a missing key
		}
		seen := first[path]
		if seen == nil {
			seen = map[string]int{}
			first[path] = seen
		}
		if l, dup := seen[k.key]; dup {
			c.add(ruleTableDuplicate.At(path, line, k.pointer, "%s is defined again (first at line %d); only the first row is used", k.what, l))
			return
		}
		seen[k.key] = line
	}
	ver := func(v string) string {
		if v == "" {
			return ""
		}
		return " version " + strconv.Quote(v)
	}
	tables := map[string]map[string]int{}
	observed := func(path string, line int, v string) {
		if v != "" {
			if _, ok := model.ParseInstant(v); !ok {
				c.add(ruleObservedAt.At(path, line, "/observed_at", "observed_at %q is not an RFC 3339 timestamp with a UTC offset", v))
			}
		}
	}
	for _, r := range c.ds.Chunks {
		if r.Typed {
			check(c.ds.Path(r.Loc), int(r.Line), tableKey{r.V.ChunkID, "/chunk_id", "chunk_id " + strconv.Quote(r.V.ChunkID)}, tables)
			observed(c.ds.Path(r.Loc), int(r.Line), r.V.ObservedAt)
		}
	}
	for _, r := range c.ds.Atoms {
		if r.Typed {
			check(c.ds.Path(r.Loc), int(r.Line), tableKey{r.V.AtomID, "/atom_id", "atom_id " + strconv.Quote(r.V.AtomID)}, tables)
			observed(c.ds.Path(r.Loc), int(r.Line), r.V.ObservedAt)
		}
	}
	for _, r := range c.ds.Documents {
		if r.Typed && r.V.DocID != "" {
			k := r.V.DocID + "\x00" + r.V.DocumentVersionID
			check(c.ds.Path(r.Loc), int(r.Line), tableKey{k, "/doc_id", "document " + strconv.Quote(r.V.DocID) + ver(r.V.DocumentVersionID)}, tables)
		}
	}
	for _, r := range c.ds.Pages {
		if r.Typed && r.V.DocID != "" {
			k := r.V.DocID + "\x00" + r.V.DocumentVersionID + "\x00" + strconv.Itoa(r.V.PageNo)
			check(c.ds.Path(r.Loc), int(r.Line), tableKey{k, "/page_no", "page " + strconv.Itoa(r.V.PageNo) + " of " + strconv.Quote(r.V.DocID) + ver(r.V.DocumentVersionID)}, tables)
		}
	}
	for _, r := range c.ds.Corpus {
		if r.Typed && r.V.SourceID != "" {
			k := r.V.SourceID + "\x00" + r.V.Revision
			p := jsonl.Pointer("source_id")
			check(c.ds.Path(r.Loc), int(r.Line), tableKey{k, p, "source " + strconv.Quote(r.V.SourceID) + " at revision " + strconv.Quote(r.V.Revision)}, tables)
		}
	}
}
