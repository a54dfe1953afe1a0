package workside

import (
	"archive/zip"
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"eval752/app/dataset"
	"eval752/app/ui/wire"
)

// MaxLineDisplay is how many bytes of one line the finding view shows; a
// longer line is cut (at a rune boundary) and marked truncated.
const MaxLineDisplay = 4000

// maxScan bounds the bytes ReadLines decompresses or reads to reach a line,
// so a zip bomb entry cannot keep the worker busy: the loader has already
// reported such an entry, and its first lines are still shown.
const maxScan = 512 << 20

// ReadLines returns lines line-ctx .. line+ctx of path, where path is an
// input name or "input!entry" for an entry of a zip input. It reads lazily
// through the inputs' ReaderAt and never holds more than the window.
func ReadLines(inputs []dataset.Input, req wire.LinesRequest) wire.LineWindow {
	w := wire.LineWindow{Path: req.Path, Line: req.Line}
	if req.Line <= 0 {
		w.Err = "the finding is about the whole file"
		return w
	}
	ctx := min(max(req.Context, 0), 50)
	r, err := open(inputs, req.Path)
	if err != nil {
		w.Err = err.Error()
		return w
	}
	if c, ok := r.(io.Closer); ok {
		defer c.Close()
	}
	first := max(req.Line-ctx, 1)
	last := req.Line + ctx
	w.First = first
	br := bufio.NewReaderSize(io.LimitReader(r, maxScan), 64<<10)
	n := 1
	var cur []byte
	cut := false
	flush := func() {
		if n >= first && n <= last {
			s := strings.TrimSuffix(string(cur), "\r")
			w.Lines = append(w.Lines, s)
			w.Truncated = append(w.Truncated, cut)
		}
		cur, cut = cur[:0], false
		n++
	}
	for n <= last {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			body := chunk
			nl := body[len(body)-1] == '\n'
			if nl {
				body = body[:len(body)-1]
			}
			if n >= first && n <= last {
				room := MaxLineDisplay - len(cur)
				if len(body) > room {
					body = trimRunes(body[:max(room, 0)])
					cut = true
				}
				cur = append(cur, body...)
			}
			if nl {
				flush()
				continue
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if len(cur) > 0 || cut {
				flush()
			}
			break
		}
	}
	if !anyTrue(w.Truncated) {
		w.Truncated = nil
	}
	if len(w.Lines) == 0 {
		w.Err = fmt.Sprintf("%s has fewer than %d lines", req.Path, req.Line)
	}
	return w
}

func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

// trimRunes drops a partial UTF-8 sequence at the end of b.
func trimRunes(b []byte) []byte {
	for len(b) > 0 && !utf8.Valid(b) {
		b = b[:len(b)-1]
	}
	return b
}

func open(inputs []dataset.Input, path string) (io.Reader, error) {
	for _, in := range inputs {
		if path == in.Name {
			return io.NewSectionReader(in.R, 0, in.Size), nil
		}
	}
	for _, in := range inputs {
		if !strings.HasPrefix(path, in.Name+"!") {
			continue
		}
		entry := strings.TrimPrefix(path, in.Name+"!")
		zr, err := zip.NewReader(in.R, in.Size)
		if err != nil {
			return nil, fmt.Errorf("%s is not a readable zip: %v", in.Name, err)
		}
		for _, f := range zr.File {
			if f.Name == entry {
				return f.Open()
			}
		}
		return nil, fmt.Errorf("%s has no entry %q", in.Name, entry)
	}
	return nil, errors.New("no loaded file is named " + path)
}
