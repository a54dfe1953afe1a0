package dataset

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestRecordOffsets: every record's Loc.Off is the byte offset of the
// start of its line, in the file or, in a bundle, in the entry's bytes:
// reading from Off to the next "\n" gives the record's line. The expected
// line starts are counted here from the bytes ("\n" ends a line; a CR
// before it and line 1's byte order mark belong to the line), not by the
// loader's line reader.
func TestRecordOffsets(t *testing.T) {
	item := func(id string) string {
		return fmt.Sprintf(`{"id": %q, "type": "freeform", "inputs": {"text": "question %s"}, "answer": "a"}`, id, id)
	}
	const bom = "\xEF\xBB\xBF"
	long := `{"id": "long", "type": "freeform", "inputs": {"text": "` + strings.Repeat("x", 400) + `"}, "answer": "a"}`
	crlf := bom + item("c1") + "\r\n\r\n" + "   \r\n" + item("c2") + "\r\n" + item("c3")
	lf := item("l1") + "\n" + long + "\n\n" + item("l2") + "\n" + item("l3") + "\n"
	array := bom + "[" + item("a0") + ",\n  " + item("a1") + ",\n\n  " + item("a2") + ", " + item("a3") + ",\r\n  " + item("a4") + "\n]\n"
	stream := bom + strings.Replace(item("s1"), `"type"`, "\n  \"type\"", 1) + "\n\n" + strings.Replace(item("s2"), `"inputs"`, "\r\n  \"inputs\"", 1) + "\n"
	asJSONL := bom + item("j1") + "\n" + item("j2") + "\n\n" + item("j3") + "\n"
	manifest := "\n" + `{"format_version": 1, "kind": "dataset"}`
	meta := `{"name": "geo", "description": "demo", "version_hash": "sha256:0000000000000000000000000000000000000000000000000000000000000000"}`
	zipped := zipOf(t, zent{"manifest.json", manifest}, zent{"meta.json", meta},
		zent{"sections/a.jsonl", crlf}, zent{"sections/b.jsonl", lf})
	cases := []struct {
		name    string
		inputs  []Input
		files   map[string]string // path as reported → its bytes
		ids     []string          // the ids of the records, in load order
		maxLine int64
	}{
		{"jsonl", []Input{memInput("crlf.jsonl", []byte(crlf)), memInput("lf.jsonl", []byte(lf))},
			map[string]string{"crlf.jsonl": crlf, "lf.jsonl": lf}, []string{"c1", "c2", "c3", "l1", "l2", "l3"}, 300},
		{"bundle", []Input{memInput("b.eval752.zip", zipped)},
			map[string]string{"b.eval752.zip!manifest.json": manifest, "b.eval752.zip!meta.json": meta,
				"b.eval752.zip!sections/a.jsonl": crlf, "b.eval752.zip!sections/b.jsonl": lf},
			[]string{"c1", "c2", "c3", "l1", "l2", "l3"}, 300},
		{"array", []Input{memInput("array.json", []byte(array))}, map[string]string{"array.json": array}, []string{"a0", "a1", "a2", "a3", "a4"}, 0},
		{"stream", []Input{memInput("stream.json", []byte(stream))}, map[string]string{"stream.json": stream}, []string{"s1", "s2"}, 0},
		{"json-that-is-jsonl", []Input{memInput("lines.json", []byte(asJSONL))}, map[string]string{"lines.json": asJSONL}, []string{"j1", "j2", "j3"}, 0},
		{"one-record", []Input{memInput("one.json", []byte(bom+"\n"+item("o1")))}, map[string]string{"one.json": bom + "\n" + item("o1")}, []string{"o1"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			lim := DefaultLimits()
			if c.maxLine > 0 {
				lim.MaxLineBytes = c.maxLine
			}
			ds, err := Load(context.Background(), c.inputs, Options{Limits: lim})
			if err != nil {
				t.Fatal(err)
			}
			if len(ds.Items) != len(c.ids) {
				t.Fatalf("%d items, want %d; findings %q", len(ds.Items), len(c.ids), codes(ds.Findings))
			}
			var locs []Loc
			for i, r := range ds.Items {
				if r.V.ID != c.ids[i] {
					t.Errorf("item %d is %q, want %q", i, r.V.ID, c.ids[i])
				}
				locs = append(locs, r.Loc)
			}
			for _, bd := range ds.Bundles {
				if bd.Manifest != nil {
					locs = append(locs, bd.Manifest.Loc)
				}
				if bd.Meta != nil {
					locs = append(locs, bd.Meta.Loc)
				}
			}
			for i, l := range locs {
				path := ds.Path(l)
				b, ok := c.files[path]
				if !ok {
					t.Fatalf("record %d: file %q (index %d) is none of the inputs", i, path, l.File)
				}
				starts := []int64{0} // of every line, counted here
				for j := 0; j < len(b); j++ {
					if b[j] == '\n' {
						starts = append(starts, int64(j+1))
					}
				}
				if l.Line == 0 {
					if l.Off != 0 {
						t.Errorf("%s: a whole-file record at offset %d, want 0", path, l.Off)
					}
					continue
				}
				if int(l.Line) > len(starts) {
					t.Fatalf("%s: line %d, the file has %d", path, l.Line, len(starts))
				}
				if want := starts[l.Line-1]; l.Off != want {
					t.Errorf("%s:%d: offset %d, want %d", path, l.Line, l.Off, want)
					continue
				}
				line := b[l.Off:]
				if k := strings.IndexByte(line, '\n'); k >= 0 {
					line = line[:k]
				}
				if i < len(ds.Items) {
					// the line at Off holds the start of the record: its
					// id on the same line, or its "{" alone on a line
					// written so (the stream's objects start `{"id": …`)
					if want := fmt.Sprintf(`{"id": %q`, c.ids[i]); !strings.Contains(line, want) {
						t.Errorf("%s:%d: the line at offset %d is %q, without %s", path, l.Line, l.Off, line, want)
					}
				}
			}
		})
	}
}

// TestAddFile: the file table gives one index to a path, also for a
// Dataset whose table was written as a literal.
func TestAddFile(t *testing.T) {
	ds := &Dataset{Files: []string{"a.jsonl", "b.jsonl"}}
	if ds.AddFile("b.jsonl") != 1 || ds.AddFile("c.jsonl") != 2 || ds.AddFile("a.jsonl") != 0 || ds.AddFile("c.jsonl") != 2 {
		t.Errorf("indexes: files %q", ds.Files)
	}
	l := ds.At("c.jsonl", 7, 120)
	if ds.Path(l) != "c.jsonl" || ds.Where(l) != (Where{"c.jsonl", 7}) || ds.Where(l).String() != "c.jsonl:7" || l.Off != 120 {
		t.Errorf("at %+v: %q %v", l, ds.Path(l), ds.Where(l))
	}
	if ds.Path(Loc{File: 9}) != "" || (Where{Path: "x"}).String() != "x" {
		t.Error("an unknown index or line 0")
	}
}
