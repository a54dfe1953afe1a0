package validate

import (
	"strconv"

	"eval752/app/finding"
	"eval752/app/jsonl"
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
	for _, r := range c.ds.Chunks {
		if r.Typed {
			check(r.Path, r.Line, tableKey{r.V.ChunkID, "/chunk_id", "chunk_id " + strconv.Quote(r.V.ChunkID)}, tables)
		}
	}
	for _, r := range c.ds.Atoms {
		if r.Typed {
			check(r.Path, r.Line, tableKey{r.V.AtomID, "/atom_id", "atom_id " + strconv.Quote(r.V.AtomID)}, tables)
		}
	}
	for _, r := range c.ds.Documents {
		if r.Typed && r.V.DocID != "" {
			k := r.V.DocID + "\x00" + r.V.DocumentVersionID
			check(r.Path, r.Line, tableKey{k, "/doc_id", "document " + strconv.Quote(r.V.DocID) + ver(r.V.DocumentVersionID)}, tables)
		}
	}
	for _, r := range c.ds.Pages {
		if r.Typed && r.V.DocID != "" {
			k := r.V.DocID + "\x00" + r.V.DocumentVersionID + "\x00" + strconv.Itoa(r.V.PageNo)
			check(r.Path, r.Line, tableKey{k, "/page_no", "page " + strconv.Itoa(r.V.PageNo) + " of " + strconv.Quote(r.V.DocID) + ver(r.V.DocumentVersionID)}, tables)
		}
	}
	for _, r := range c.ds.Corpus {
		if r.Typed && r.V.SourceID != "" {
			k := r.V.SourceID + "\x00" + r.V.Revision
			p := jsonl.Pointer("source_id")
			check(r.Path, r.Line, tableKey{k, p, "source " + strconv.Quote(r.V.SourceID) + " at revision " + strconv.Quote(r.V.Revision)}, tables)
		}
	}
}
