package workside

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"eval752/app/dataset"
	"eval752/app/report"
	"eval752/app/ui/wire"
)

// backRead is how many bytes before a line ReadLinesAt reads: enough to find
// the starts of the context lines before it (longer lines make it scan
// instead) and, for a line that near the file's start, to count the lines
// before it.
const backRead = 256 << 10

// ReadLinesAt is ReadLines for a line whose start is known: off is the byte
// offset of req.Line's start (dataset.Loc.Off: in a bundle entry, in its
// uncompressed bytes). It gives the same window as ReadLines without
// scanning the lines before it:
//
//   - a plain input is read from at most backRead bytes before off to the
//     window's end;
//   - a stored zip entry is read in place the same way;
//   - a deflated entry cannot seek: it is decompressed up to off and those
//     bytes discarded (the decompression costs what ReadLines' does; the
//     line splitting and copying of every line before it are saved).
//
// The offset is trusted only if the byte before it ends a line, the context
// lines' starts are found within backRead bytes, and, when those bytes reach
// back to the file's start, exactly req.Line-1 lines end in them. Otherwise —
// an offset past the end, inside a line, or 0 for a line after the first
// (0 is "unknown" for TREC qrels and peer logs) — it falls back to
// ReadLines' scan, so it never shows another line as req.Line unless the
// offset names another line's start past the first backRead bytes, which
// only a file changed after loading can do (and then the scan is no better).
func ReadLinesAt(inputs []dataset.Input, req wire.LinesRequest, off int64) wire.LineWindow {
	if req.Line <= 1 || off <= 0 { // line 1 starts at 0: nothing to skip
		return ReadLines(inputs, req)
	}
	if w, ok := readAt(inputs, req, off); ok {
		return w
	}
	return ReadLines(inputs, req)
}

// readAt is ReadLinesAt's read from off (req.Line > 1, off > 0); false when
// the offset is not confirmed or the read fails (the scan then decides).
func readAt(inputs []dataset.Input, req wire.LinesRequest, off int64) (wire.LineWindow, bool) {
	size, from, err := openFrom(inputs, req.Path)
	if err != nil || off >= size {
		return wire.LineWindow{}, false
	}
	back := min(off, backRead)
	start := off - back
	r, err := from(start)
	if err != nil {
		return wire.LineWindow{}, false
	}
	if c, ok := r.(io.Closer); ok {
		defer c.Close()
	}
	buf := make([]byte, back)
	if _, err := io.ReadFull(r, buf); err != nil || buf[back-1] != '\n' {
		return wire.LineWindow{}, false
	}
	if start == 0 && bytes.Count(buf, []byte{'\n'}) != req.Line-1 {
		return wire.LineWindow{}, false // the offset is another line's
	}
	// s: where the window's first line starts in buf (the lines before
	// req.Line that the window shows, each found by the newline before it)
	s, n := len(buf), req.Line
	ctx := min(max(req.Context, 0), maxContext)
	for ; n > 1 && req.Line-n < ctx; n-- {
		i := bytes.LastIndexByte(buf[:s-1], '\n')
		switch {
		case n-1 == 1 && i < 0 && start == 0:
			s = 0 // line 1, at the file's start
		case n-1 == 1 || i < 0:
			return wire.LineWindow{}, false // a newline too many, or out of reach
		default:
			s = i + 1
		}
	}
	w := window(io.LimitReader(io.MultiReader(bytes.NewReader(buf[s:]), r), maxScan), n, req)
	return w, w.Err == ""
}

// openFrom finds path among the inputs (a file, or a bundle entry
// "bundle.eval752.zip!items.jsonl") and returns its (uncompressed) size and
// a function that reads it from a byte offset.
func openFrom(inputs []dataset.Input, path string) (int64, func(int64) (io.Reader, error), error) {
	for _, in := range inputs {
		if path == in.Name {
			return in.Size, func(at int64) (io.Reader, error) { return io.NewSectionReader(in.R, at, in.Size-at), nil }, nil
		}
	}
	for _, in := range inputs {
		if !strings.HasPrefix(path, in.Name+"!") {
			continue
		}
		entry := strings.TrimPrefix(path, in.Name+"!")
		zr, err := zip.NewReader(in.R, in.Size)
		if err != nil {
			return 0, nil, fmt.Errorf("%s is not a readable zip: %v", in.Name, err)
		}
		for _, f := range zr.File {
			if f.Name != entry {
				continue
			}
			size := int64(f.UncompressedSize64)
			if f.Method == zip.Store {
				if d, err := f.DataOffset(); err == nil && int64(f.CompressedSize64) == size {
					return size, func(at int64) (io.Reader, error) { return io.NewSectionReader(in.R, d+at, size-at), nil }, nil
				}
			}
			return size, func(at int64) (io.Reader, error) {
				rc, err := f.Open()
				if err != nil {
					return nil, err
				}
				// the bytes before at are decompressed and dropped, within
				// the scan's bound (a zip bomb entry)
				if at > maxScan {
					rc.Close()
					return nil, io.ErrUnexpectedEOF
				}
				if _, err := io.CopyN(io.Discard, rc, at); err != nil {
					rc.Close()
					return nil, err
				}
				return rc, nil
			}, nil
		}
		return 0, nil, fmt.Errorf("%s has no entry %q", in.Name, entry)
	}
	return 0, nil, errors.New("no loaded file is named " + path)
}

// OffsetOf is the start offset of line of path as the item browser's items
// know it (report.ItemDetail.Off), 0 when no item is on that line or its
// offset is unknown: what the worker gives ReadLinesAt. Linear in the items
// (a few milliseconds for a million), which costs no memory kept.
func OffsetOf(items []report.ItemDetail, path string, line int) int64 {
	for i := range items {
		if it := &items[i]; it.Line == line && it.Off > 0 && it.Path == path {
			return it.Off
		}
	}
	return 0
}
