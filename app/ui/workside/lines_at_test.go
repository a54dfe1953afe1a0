package workside

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"eval752/app/dataset"
	"eval752/app/engine"
	"eval752/app/ui/wire"
)

// lineStarts is the byte offset of every line's start in b, counted here
// from the bytes ("\n" ends a line; a CR and line 1's BOM belong to their
// line), not by the loader: starts[n-1] is line n's.
func lineStarts(b string) []int64 {
	starts := []int64{0}
	for i := 0; i < len(b); i++ {
		if b[i] == '\n' && i+1 < len(b) {
			starts = append(starts, int64(i+1))
		}
	}
	return starts
}

func atItem(id string) string {
	return fmt.Sprintf(`{"id": %q, "type": "freeform", "inputs": {"text": "question %s"}, "answer": "a"}`, id, id)
}

// atFiles are the test's files: a plain JSONL with a BOM, CRLF, blank
// lines, a line longer than MaxLineDisplay and a last line without newline,
// and a bundle holding an LF file (deflated) and the CRLF file (stored).
func atFiles(t *testing.T) ([]dataset.Input, map[string]string) {
	const bom = "\xEF\xBB\xBF"
	long := `{"id": "long", "type": "freeform", "inputs": {"text": "` + strings.Repeat("é", MaxLineDisplay) + `"}, "answer": "a"}`
	crlf := bom + atItem("c1") + "\r\n\r\n" + "   \r\n" + atItem("c2") + "\r\n" + long + "\r\n" + atItem("c3")
	lf := atItem("l1") + "\n\n\n" + atItem("l2") + "\n" + atItem("l3") + "\n\n" + atItem("l4")
	var zbuf bytes.Buffer
	zw := zip.NewWriter(&zbuf)
	add := func(name, body string, method uint16) {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: method})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	add("manifest.json", `{"format_version": 1, "kind": "dataset"}`, zip.Deflate)
	add("meta.json", `{"name": "geo", "description": "demo", "version_hash": "sha256:0000000000000000000000000000000000000000000000000000000000000000"}`, zip.Deflate)
	add("sections/a.jsonl", lf, zip.Deflate)
	add("sections/s.jsonl", crlf, zip.Store)
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	inputs := []dataset.Input{memInput("crlf.jsonl", []byte(crlf)), memInput("b.eval752.zip", zbuf.Bytes())}
	files := map[string]string{"crlf.jsonl": crlf, "b.eval752.zip!sections/a.jsonl": lf, "b.eval752.zip!sections/s.jsonl": crlf}
	return inputs, files
}

// TestReadLinesAt: with a line's right start offset, ReadLinesAt reads from
// there (readAt succeeds) and gives exactly the window of ReadLines' scan
// (the reference: the code the item browser used before), for every line
// of a plain file and of deflated and stored bundle entries, with and
// without context lines and a pointer; with a wrong offset it gives the
// scan's window too.
func TestReadLinesAt(t *testing.T) {
	inputs, files := atFiles(t)
	for path, body := range files {
		starts := lineStarts(body)
		for n := 1; n <= len(starts)+1; n++ { // +1: a line past the end
			for _, ctx := range []int{0, 1, 3} {
				for _, ptr := range []string{"", "/id"} {
					req := wire.LinesRequest{Path: path, Line: n, Context: ctx, Pointer: ptr}
					want := ReadLines(inputs, req)
					if n <= len(starts) {
						off := starts[n-1]
						if got := ReadLinesAt(inputs, req, off); !reflect.DeepEqual(got, want) {
							t.Errorf("%s line %d ctx %d %q at %d:\n got %+v\nwant %+v", path, n, ctx, ptr, off, got, want)
						}
						if n > 1 {
							if got, ok := readAt(inputs, req, off); !ok || !reflect.DeepEqual(got, want) {
								t.Errorf("%s line %d ctx %d: readAt at the right offset %d: ok=%v, %+v; want the offset read", path, n, ctx, off, ok, got)
							}
						}
					}
					// wrong offsets: inside a line, another line's start,
					// past the end, unknown (0), negative
					wrong := []int64{-5, 0, int64(len(body)), int64(len(body)) + 100}
					for _, s := range starts {
						wrong = append(wrong, s, s+1, s-1)
					}
					for _, off := range wrong {
						if n <= len(starts) && off == starts[n-1] {
							continue
						}
						if got := ReadLinesAt(inputs, req, off); !reflect.DeepEqual(got, want) {
							t.Errorf("%s line %d ctx %d, wrong offset %d: %+v; want the scan's %+v", path, n, ctx, off, got, want)
						}
					}
				}
			}
		}
	}
}

// TestReadLinesAtFar: past backRead bytes the line count cannot be checked;
// an offset inside a line (the byte before it does not end a line) still
// falls back to the scan, and the right offsets give the scan's window.
func TestReadLinesAtFar(t *testing.T) {
	var b strings.Builder
	for i := 1; b.Len() < 3*backRead; i++ {
		fmt.Fprintf(&b, `{"line":%d,"pad":"%s"}`+"\r\n", i, strings.Repeat("x", i%50))
	}
	b.WriteString(`{"line":"last"}`)
	body := b.String()
	inputs := []dataset.Input{memInput("far.jsonl", []byte(body))}
	starts := lineStarts(body)
	for _, n := range []int{2, len(starts) / 2, len(starts) - 1, len(starts)} {
		req := wire.LinesRequest{Path: "far.jsonl", Line: n, Context: 3}
		want := ReadLines(inputs, req)
		if got, ok := readAt(inputs, req, starts[n-1]); !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("line %d: readAt ok=%v %+v; want %+v", n, ok, got, want)
		}
		for _, off := range []int64{starts[n-1] + 1, starts[n-1] - 1, starts[n-1] + 5} {
			if got := ReadLinesAt(inputs, req, off); !reflect.DeepEqual(got, want) {
				t.Errorf("line %d, offset %d inside a line: %+v; want the scan's %+v", n, off, got, want)
			}
		}
	}
}

// TestItemOffsets: the item browser's items (engine.Evaluate, as the
// worker runs it) carry each record's line start, which OffsetOf finds by
// path and line, and from which ReadLinesAt reads the record's line.
func TestItemOffsets(t *testing.T) {
	inputs, files := atFiles(t)
	res, err := engine.Evaluate(context.Background(), inputs, engine.DefaultOptions(), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, items := Slim(res)
	// 4 records in crlf.jsonl (c1, c2, long, c3), 4 in a.jsonl, 4 in s.jsonl
	if len(items) != 12 {
		t.Fatalf("%d items, want 12", len(items))
	}
	for _, it := range items {
		body, ok := files[it.Path]
		if !ok {
			t.Fatalf("item %s in %q, not a test file", it.ID, it.Path)
		}
		starts := lineStarts(body)
		if it.Line < 1 || it.Line > len(starts) || it.Off != starts[it.Line-1] {
			t.Errorf("item %s at %s:%d: Off %d; want %v[line-1]", it.ID, it.Path, it.Line, it.Off, starts)
			continue
		}
		if got := OffsetOf(items, it.Path, it.Line); got != it.Off {
			t.Errorf("OffsetOf(%s:%d) = %d, want %d", it.Path, it.Line, got, it.Off)
		}
		req := wire.LinesRequest{Path: it.Path, Line: it.Line}
		w := ReadLinesAt(inputs, req, it.Off)
		if !reflect.DeepEqual(w, ReadLines(inputs, req)) || len(w.Lines) != 1 || !strings.Contains(w.Lines[0], fmt.Sprintf("%q", it.ID)) {
			t.Errorf("item %s: window %+v; want its own line, as the scan reads it", it.ID, w)
		}
	}
	if OffsetOf(items, "crlf.jsonl", 2) != 0 || OffsetOf(items, "nope.jsonl", 1) != 0 {
		t.Error("OffsetOf of a line no item is on: not 0")
	}
}
