package trec

import (
	"bufio"
	"io"
	"math"
	"strconv"

	"eval752/app/finding"
)

// Write prints the result exactly as trec_eval does: with perQuery (-q)
// every query's lines in qrels qid order first, then the "all" block. Each
// line is "%-22s\t%s\t%6.4f" (counts as integers, runid as a string,
// relstring quoted). A qid or run tag holding a control character (ESC:
// trec_eval splits on white space only) is printed inert (finding.Inert);
// every other byte is trec_eval's.
func (r *Result) Write(w io.Writer, perQuery bool) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	var line []byte
	if perQuery {
		for _, q := range r.Queries {
			for c, col := range r.Columns {
				if !col.PerQuery {
					continue
				}
				line = appendName(line[:0], col.Name, finding.Inert(q.QID))
				if col.Kind == String {
					line = append(line, '\'')
					line = append(line, q.RelString...)
					line = append(line, '\'')
				} else {
					line = appendValue(line, col.Kind, q.Values[c])
				}
				line = append(line, '\n')
				bw.Write(line)
			}
		}
	}
	for c, col := range r.Columns {
		if !col.Summary {
			continue
		}
		line = appendName(line[:0], col.Name, "all")
		if col.Kind == String {
			line = append(line, finding.Inert(r.RunID)...)
		} else {
			line = appendValue(line, col.Kind, r.Summary[c])
		}
		line = append(line, '\n')
		bw.Write(line)
	}
	return bw.Flush()
}

// appendName appends "%-22s\t%s\t".
func appendName(b []byte, name, qid string) []byte {
	b = append(b, name...)
	for n := len(name); n < 22; n++ {
		b = append(b, ' ')
	}
	b = append(b, '\t')
	b = append(b, qid...)
	return append(b, '\t')
}

// appendValue formats like C's printf: "%ld" of the truncated value for
// counts, "%6.4f" otherwise (glibc spells NaN "-nan"/"nan" and infinity "inf").
func appendValue(b []byte, kind ValueKind, v float64) []byte {
	if kind == Int {
		return strconv.AppendInt(b, int64(v), 10)
	}
	var s []byte
	switch {
	case math.IsNaN(v):
		if math.Signbit(v) {
			s = []byte("-nan")
		} else {
			s = []byte("nan")
		}
	case math.IsInf(v, 1):
		s = []byte("inf")
	case math.IsInf(v, -1):
		s = []byte("-inf")
	default:
		return padLeft(b, strconv.AppendFloat(nil, v, 'f', 4, 64), 6)
	}
	return padLeft(b, s, 6)
}

func padLeft(b, s []byte, width int) []byte {
	for n := len(s); n < width; n++ {
		b = append(b, ' ')
	}
	return append(b, s...)
}
