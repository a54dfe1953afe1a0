package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// JSON reports are written as they are walked, not built as one indented
// document first: json.Encoder.Encode marshals the whole value into one
// buffer and indents it into a second, which for a 100k-query score report
// (≈ 800 MB of JSON) costs gigabytes. Stream writes the same bytes —
// json.Encoder with SetIndent("", "  ") and SetEscapeHTML(false), then a
// newline — but encodes the big arrays (sections, table rows, items,
// findings) element by element through a buffered writer, so what it holds
// at a time is one element's encoding.
type Stream struct {
	w   *bufio.Writer
	buf bytes.Buffer
	enc *json.Encoder
	err error
}

// NewStream writes to w; call Close to flush.
func NewStream(w io.Writer) *Stream {
	s := &Stream{w: bufio.NewWriterSize(w, 64<<10)}
	s.enc = json.NewEncoder(&s.buf)
	s.enc.SetEscapeHTML(false)
	return s
}

func (s *Stream) raw(b string) {
	if s.err == nil {
		_, s.err = s.w.WriteString(b)
	}
}

// indent writes the indentation of depth d.
func (s *Stream) indent(d int) { s.raw(strings.Repeat("  ", d)) }

// Value writes v at nesting depth d, as the whole document's encoder would
// write it there (its first line unindented: the caller placed it).
func (s *Stream) Value(d int, v any) {
	if s.err != nil {
		return
	}
	s.buf.Reset()
	s.enc.SetIndent(strings.Repeat("  ", d), "  ")
	if s.err = s.enc.Encode(v); s.err != nil {
		return
	}
	b := s.buf.Bytes()
	_, s.err = s.w.Write(b[:len(b)-1]) // without Encode's newline
}

// Object writes an object at depth d whose fields are written by the
// funcs of fields, in order, each given its field's depth; a field func
// returns false to be left out (omitempty).
func (s *Stream) Object(d int, fields ...Field) {
	s.raw("{")
	n := 0
	for _, f := range fields {
		if f.Omit {
			continue
		}
		if n > 0 {
			s.raw(",")
		}
		n++
		s.raw("\n")
		s.indent(d + 1)
		s.Value(0, f.Key)
		s.raw(": ")
		if f.Write != nil {
			f.Write(d + 1)
		} else {
			s.Value(d+1, f.V)
		}
	}
	if n > 0 {
		s.raw("\n")
		s.indent(d)
	}
	s.raw("}")
}

// Field is one field of Object: V encoded whole, or Write called to stream
// it; Omit leaves it out.
type Field struct {
	Key   string
	V     any
	Write func(d int)
	Omit  bool
}

// Array writes n elements at depth d, element i by elem(i, depth); nil
// (when isNil) is written as null, no elements as [].
func (s *Stream) Array(d, n int, isNil bool, elem func(i, d int)) {
	if isNil {
		s.raw("null")
		return
	}
	if n == 0 {
		s.raw("[]")
		return
	}
	s.raw("[")
	for i := 0; i < n; i++ {
		if i > 0 {
			s.raw(",")
		}
		s.raw("\n")
		s.indent(d + 1)
		elem(i, d+1)
	}
	s.raw("\n")
	s.indent(d)
	s.raw("]")
}

// Close ends the document with a newline and flushes; it returns the first
// error of any write.
func (s *Stream) Close() error {
	s.raw("\n")
	if s.err == nil {
		s.err = s.w.Flush()
	}
	return s.err
}

// WriteReport streams r at depth d (the fields of Report, in order).
func (s *Stream) WriteReport(d int, r *Report) {
	if r == nil {
		s.raw("null")
		return
	}
	s.Object(d,
		Field{Key: "kind", V: r.Kind},
		Field{Key: "title", V: r.Title},
		Field{Key: "tool", V: r.Tool},
		Field{Key: "config", V: r.Config},
		Field{Key: "inputs", V: r.Inputs},
		Field{Key: "sections", Write: func(d int) {
			s.Array(d, len(r.Sections), r.Sections == nil, func(i, d int) { s.writeSection(d, &r.Sections[i]) })
		}},
		Field{Key: "items", Omit: len(r.Items) == 0, Write: func(d int) {
			s.Array(d, len(r.Items), false, func(i, d int) { s.Value(d, r.Items[i]) })
		}},
	)
}

func (s *Stream) writeSection(d int, sec *Section) {
	s.Object(d,
		Field{Key: "id", V: sec.ID},
		Field{Key: "title", V: sec.Title},
		Field{Key: "text", V: sec.Text, Omit: len(sec.Text) == 0},
		Field{Key: "tables", Omit: len(sec.Tables) == 0, Write: func(d int) {
			s.Array(d, len(sec.Tables), false, func(i, d int) { s.writeTable(d, &sec.Tables[i]) })
		}},
		Field{Key: "notes", V: sec.Notes, Omit: len(sec.Notes) == 0},
	)
}

// writeTable writes t as Table.MarshalJSON does (rows and columns never
// null), the rows one by one.
func (s *Stream) writeTable(d int, t *Table) {
	cols := t.Columns
	if cols == nil {
		cols = []Column{}
	}
	s.Object(d,
		Field{Key: "id", V: t.ID},
		Field{Key: "title", V: t.Title},
		Field{Key: "columns", V: cols},
		Field{Key: "rows", Write: func(d int) {
			s.Array(d, len(t.Rows), false, func(i, d int) { s.Value(d, t.Rows[i]) })
		}},
		Field{Key: "notes", V: t.Notes, Omit: len(t.Notes) == 0},
		Field{Key: "chart", V: t.Chart, Omit: !t.Chart},
	)
}
