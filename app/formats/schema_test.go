package formats

import (
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"

	"eval752/app/model"
)

// fast holds the fast check of every format that has one, filled by
// schemas (the tests' view of every compiled schema at once).
var fast map[model.Format]*fastNode

// schemas compiles every schema and returns them by format, with fast
// filled: what the tests of the fast check iterate over.
func schemas() (map[model.Format]*jsonschema.Schema, error) {
	err := CompileAll()
	m := map[model.Format]*jsonschema.Schema{}
	fast = map[model.Format]*fastNode{}
	for _, f := range embedded.order {
		e := schemaFor(f)
		if e.s != nil {
			m[f] = e.s
		}
		if e.fast != nil {
			fast[f] = e.fast
		}
	}
	return m, err
}

// TestSchemasCompileLazily: asking for one format's schema compiles that
// format's and no other (a load pays only for the formats it holds), and
// asking again, or compiling the rest afterwards, does not compile it a
// second time (one compile per format per process). A fresh set, so other
// tests' compiles do not interfere.
func TestSchemasCompileLazily(t *testing.T) {
	ss := newSchemaSet()
	item, verdict := model.FormatItem, model.FormatVerdict
	if ss.of[item] == nil || ss.of[verdict] == nil {
		t.Fatal("eval752.item and eval752.verdict must have schemas")
	}
	e := ss.get(item)
	if e.s == nil || e.err != nil {
		t.Fatalf("eval752.item: no schema (%v)", e.err)
	}
	for f, o := range ss.of {
		if f != item && o.s != nil {
			t.Errorf("compiling eval752.item compiled %s too", f)
		}
	}
	s := e.s
	for _, f := range ss.order {
		if o := ss.get(f); o.s == nil {
			t.Errorf("%s: not compiled (%v)", f, o.err)
		}
	}
	if ss.get(item).s != s {
		t.Fatal("eval752.item was compiled a second time")
	}
	// the same answers as the process's set
	if err := CompileAll(); err != nil {
		t.Fatal(err)
	}
	if (ss.get(verdict).fast == nil) != (schemaFor(verdict).fast == nil) {
		t.Error("a fresh set and the process's set disagree on eval752.verdict's fast check")
	}
}
