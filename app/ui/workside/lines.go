package workside

import (
	"bufio"
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

// maxTarget is how much of the finding's own line is read to locate its
// pointer's value; keepContext how much of the lines around it, so they can
// be shown from the same column.
const (
	maxTarget   = 8 << 20
	keepContext = 64 << 10
	// lead is how many bytes before the value stay in view once the lines
	// are cut; they are cut only when the value starts past inView (a
	// value that near the start is in view as the line is).
	lead   = 24
	inView = 100
)

// maxScan bounds the bytes ReadLines decompresses or reads to reach a line,
// so a zip bomb entry cannot keep the worker busy: the loader has already
// reported such an entry, and its first lines are still shown.
const maxScan = 512 << 20

// maxContext is the most lines a window shows on either side of its line.
const maxContext = 50

// ReadLines returns lines line-ctx .. line+ctx of path, where path is an
// input name or "input!entry" for an entry of a zip input. It reads lazily
// through the inputs' ReaderAt and never holds more than the window, but
// scans every line before the window; ReadLinesAt starts at the line.
func ReadLines(inputs []dataset.Input, req wire.LinesRequest) wire.LineWindow {
	if req.Line <= 0 {
		return wire.LineWindow{Path: req.Path, Line: req.Line, Err: "the finding is about the whole file"}
	}
	r, err := open(inputs, req.Path)
	if err != nil {
		return wire.LineWindow{Path: req.Path, Line: req.Line, Err: err.Error()}
	}
	if c, ok := r.(io.Closer); ok {
		defer c.Close()
	}
	return window(io.LimitReader(r, maxScan), 1, req)
}

// window reads the window of req from r, whose first byte starts line n.
func window(r io.Reader, n int, req wire.LinesRequest) wire.LineWindow {
	w := wire.LineWindow{Path: req.Path, Line: req.Line}
	ctx := min(max(req.Context, 0), maxContext)
	first := max(req.Line-ctx, 1)
	last := req.Line + ctx
	w.First = first
	br := bufio.NewReaderSize(r, 64<<10)
	var cur []byte
	cut := false
	var readErr error // not EOF: the file can no longer be read
	focused := req.Pointer != "" || req.Column > 0
	limit := func(n int) int {
		switch {
		case n == req.Line && focused:
			return maxTarget
		case focused:
			return keepContext
		}
		return MaxLineDisplay
	}
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
				room := limit(n) - len(cur)
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
			if err != io.EOF {
				readErr = err
				break
			}
			if len(cur) > 0 || cut {
				flush()
			}
			break
		}
	}
	if readErr != nil {
		return wire.LineWindow{Path: req.Path, Line: req.Line,
			Err: fmt.Sprintf("%s can no longer be read, so its lines cannot be shown (%v): it was moved, deleted or changed after it was loaded; load it again", req.Path, readErr)}
	}
	if focused {
		focus(&w, req)
	}
	for i, l := range w.Lines {
		if len(l) > MaxLineDisplay {
			w.Lines[i] = string(trimRunes([]byte(l[:MaxLineDisplay])))
			w.Truncated[i] = true
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

// focus locates the pointer's value (or else the finding's column) on the
// whole target line and, when it lies beyond the first columns, drops the
// same number of bytes (lead bytes before the value, moved to a rune start)
// from every line of the window.
func focus(w *wire.LineWindow, req wire.LinesRequest) {
	k := req.Line - w.First
	if k < 0 || k >= len(w.Lines) {
		return
	}
	st, en, exact, ok := 0, 0, false, false
	if req.Pointer != "" {
		st, en, exact, ok = wire.PointerSpan(w.Lines[k], req.Pointer)
	}
	if !ok && req.Column > 0 {
		// the character at the column (an empty span past the end of
		// the line: "unexpected end of input" is reported there)
		l := w.Lines[k]
		st = min(req.Column-1, len(l))
		for st > 0 && st < len(l) && !utf8.RuneStart(l[st]) {
			st--
		}
		en = st
		if st < len(l) {
			_, n := utf8.DecodeRuneInString(l[st:])
			en = st + n
		}
		ok, exact, w.HitColumn = true, true, true
	}
	if !ok {
		return
	}
	from := 0
	if st > inView {
		from = st - lead
		for from < st && !utf8.RuneStart(w.Lines[k][from]) {
			from++
		}
	}
	for i, l := range w.Lines {
		if from >= len(l) {
			w.Lines[i] = ""
			continue
		}
		j := from
		for j < len(l) && !utf8.RuneStart(l[j]) {
			j++
		}
		w.Lines[i] = l[j:]
	}
	w.From = from
	w.Hit, w.HitExact = []int{st - from, min(en-from, MaxLineDisplay)}, exact
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
	_, from, err := openFrom(inputs, path)
	if err != nil {
		return nil, err
	}
	return from(0)
}
