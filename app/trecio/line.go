package trecio

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Mode says how a line is read: Strict (the validator) or Lenient
// (trec_eval). See the package comment.
type Mode uint8

const (
	Strict Mode = iota
	Lenient
)

// Record is one parsed content line. The byte fields are views into the
// line, valid as long as the line's block is.
type Record struct {
	QID, DocNo []byte
	Rank, Tag  []byte  // run lines: the rank field as written, the tag
	Grade      int64   // qrels lines
	Score      float64 // run lines
}

// StrictRank is the rank field as the validator keeps it: a Go int, 0 when
// it is not one (trec_eval ignores the field).
func (r *Record) StrictRank() int {
	n, _ := strconv.Atoi(string(r.Rank))
	return n
}

// Status is what a line parser made of a line.
type Status uint8

const (
	OK     Status = iota // a record
	Skip                 // a blank or comment line
	Bad                  // an Issue
	Header               // a qrels file's header line (skipped)
)

// Problem is what is wrong with a line.
type Problem uint8

const (
	NoProblem   Problem = iota
	TooLongRead         // longer than the cap with its terminator (its size, ≥)
	TooLong             // longer than the cap once the terminator is cut
	BadUTF8             // not valid UTF-8 (N: 1-based column of the first bad byte)
	Fields              // the wrong number of fields (N: how many)
	Grade               // the grade is not an integer (Text)
	Score               // the score is refused (Text, QID)
)

// Issue is one located problem of a line. Line is the 1-based line number
// within its block until the caller, which knows the block's first line,
// adds it (At); Offset is the byte offset of the line's first byte in the
// file.
type Issue struct {
	Line    int64
	Offset  int64
	Problem Problem
	Mode    Mode
	Layout  *Layout // qrels lines; nil for run lines
	N       int64
	Text    string // the offending field (Strict) or the clipped line (Lenient)
	QID     string
	msg     string // Lenient score messages, which do not name the line
	maxLine int64
}

// Message says what is wrong, in the words of the reader of Issue's mode
// (jsonl.Lines's, dataset's or trec_eval-mode's messages).
func (is *Issue) Message() string {
	n := is.Line
	switch is.Problem {
	case TooLongRead:
		return fmt.Sprintf("line %d is longer than %d bytes (≥ %d); skipped", n, is.maxLine, is.N)
	case TooLong:
		return fmt.Sprintf("line %d is longer than %d bytes (%d); skipped", n, is.maxLine, is.N)
	case BadUTF8:
		return fmt.Sprintf("line %d is not valid UTF-8 (first bad byte at column %d)", n, is.N)
	case Fields:
		switch {
		case is.Mode == Lenient && is.Layout != nil:
			return fmt.Sprintf("malformed qrels line (want 4 fields: qid iter docno rel): %q", is.Text)
		case is.Mode == Lenient:
			return fmt.Sprintf("malformed run line (want 6 fields: qid iter docno rank score tag): %q", is.Text)
		case is.Layout != nil:
			return fmt.Sprintf("%s line %d has %d fields; want %d: %s", is.Layout.What, n, is.N, is.Layout.Fields, is.Layout.Shape)
		}
		return fmt.Sprintf("run line %d has %d fields; want 6: qid Q0 docno rank score tag", n, is.N)
	case Grade:
		return fmt.Sprintf("%s line %d: %s %q is not %s", is.Layout.What, n, is.Layout.GradeName, is.Text, is.Layout.GradeWant)
	case Score:
		if is.Mode == Lenient {
			return is.msg
		}
		_, msg := StrictScore(is.Text, is.QID, int(n))
		return msg
	}
	return ""
}

// Hint says how to fix the line.
func (is *Issue) Hint() string {
	switch is.Problem {
	case TooLongRead, TooLong:
		return "split the line or raise the line cap (command line: --max-line-mb N)"
	case BadUTF8:
		return "re-encode the file as UTF-8 (e.g. iconv -f GB18030 -t UTF-8)"
	case Fields:
		if is.Layout != nil {
			return "write one judgment per line: " + is.Layout.Shape
		}
		return "write one result per line: qid Q0 docno rank score tag"
	case Grade:
		return "write the grade as an integer (0, 1, 2, ...)"
	case Score:
		return "write the score as a finite decimal number (e.g. 0.8125)"
	}
	return ""
}

// Layout is the columns of a judgment file read in Strict mode: TREC qrels
// or BEIR's TSV. The qid is always the first column.
type Layout struct {
	Comments  bool                  // lines whose first field starts with '#' are skipped (trec_eval v10)
	Header    func(f []string) bool // a first line that is a header (called only with Fields fields)
	Fields    int                   // field count
	Doc       int                   // docno column
	GradeCol  int                   // grade column
	What      string                // the file's name in messages ("qrels")
	Shape     string                // the line's shape in messages
	GradeName string                // what the grade column is called
	GradeWant string                // what it must be
}

// spaceTable marks C's isspace characters in the "C" locale, which are also
// the ASCII characters strings.Fields splits on.
var spaceTable = [256]bool{' ': true, '\t': true, '\n': true, '\v': true, '\f': true, '\r': true}

// splitBytes splits line at C's isspace bytes into f (at most cap(f) fields
// kept); count is the real number of fields. For an ASCII line it is
// strings.Fields.
func splitBytes(line []byte, f [][]byte) ([][]byte, int) {
	i := 0
	count := 0
	for i < len(line) {
		for i < len(line) && spaceTable[line[i]] {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && !spaceTable[line[j]] {
			j++
		}
		count++
		if len(f) < cap(f) {
			f = append(f, line[i:j])
		}
		i = j
	}
	return f, count
}

// splitStrict is strings.Fields for a line into f (at most cap(f) fields
// kept; count is the real number of fields), without allocating for an
// ASCII line.
func splitStrict(line []byte, f [][]byte) ([][]byte, int) {
	if ascii(line) {
		return splitBytes(line, f)
	}
	fstr := strings.Fields(string(line))
	for _, s := range fstr {
		if len(f) == cap(f) {
			break
		}
		f = append(f, []byte(s))
	}
	return f, len(fstr)
}

func ascii(b []byte) bool {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// FirstField is the qid of a Lenient run line, and false for a blank or
// comment line (trec_eval skips both).
func FirstField(line []byte) ([]byte, bool) {
	i := 0
	for i < len(line) && spaceTable[line[i]] {
		i++
	}
	if i == len(line) || line[i] == '#' {
		return nil, false
	}
	j := i
	for j < len(line) && !spaceTable[line[j]] {
		j++
	}
	return line[i:j], true
}

// ParseRun parses one run line "qid Q0 docno rank score tag" into rec.
// Strict takes the line as a Lines iterator gives it (terminator and BOM
// cut, not blank, valid UTF-8) and wants exactly six strings.Fields fields;
// Lenient takes the raw line (up to its '\n') and wants at least six
// isspace fields. A Bad line's issue (in is) has Line and Offset unset.
func ParseRun(m Mode, line []byte, rec *Record, is *Issue) Status {
	var fb [7][]byte
	var f [][]byte
	var nf int
	if m == Lenient {
		f, nf = splitBytes(line, fb[:0:6])
		if nf == 0 || f[0][0] == '#' {
			return Skip
		}
		if nf < 6 {
			*is = Issue{Problem: Fields, Mode: m, N: int64(nf), Text: Clip(line)}
			return Bad
		}
		score, msg := LenientScore(f[4], f[0])
		if msg != "" {
			*is = Issue{Problem: Score, Mode: m, msg: msg}
			return Bad
		}
		*rec = Record{QID: f[0], DocNo: f[2], Rank: f[3], Tag: f[5], Score: score}
		return OK
	}
	f, nf = splitStrict(line, fb[:0:7])
	if nf > 0 && f[0][0] == '#' {
		return Skip
	}
	if nf != 6 {
		*is = Issue{Problem: Fields, Mode: m, N: int64(nf)}
		return Bad
	}
	score, msg := StrictScore(View(f[4]), View(f[0]), 0)
	if msg != "" {
		*is = Issue{Problem: Score, Mode: m, Text: string(f[4]), QID: string(f[0])}
		return Bad
	}
	*rec = Record{QID: f[0], DocNo: f[2], Rank: f[3], Tag: f[5], Score: score}
	return OK
}

// QrelsTREC is the Strict layout of a TREC qrels file ("qid iter docno
// grade"; '#' lines skipped; a header such as seed 003 §10's "qid 0
// chunk_id relevance_grade" on the first line skipped when header says so).
func QrelsTREC(header func([]string) bool) *Layout {
	return &Layout{Comments: true, Header: header, Fields: 4, Doc: 2, GradeCol: 3,
		What: "qrels", Shape: "qid iter docno grade", GradeName: "grade", GradeWant: "an integer"}
}

// QrelsParser parses the lines of one judgment file in order (it keeps
// whether the first line is behind it, for the header).
type QrelsParser struct {
	Mode   Mode
	Layout *Layout // Strict only
	seen   bool    // a first line was seen
}

// Parse parses one judgment line into rec. Strict: as Layout says, the
// grade by strconv.Atoi. Lenient (trec_eval's get_qrels.c): exactly four
// isspace fields "qid iter docno rel", the grade by atol, '#' lines
// skipped, and a first line "qid ..." whose grade does not start like a
// number skipped as a header.
func (p *QrelsParser) Parse(line []byte, rec *Record, is *Issue) Status {
	var fb [8][]byte
	if p.Mode == Lenient {
		f, nf := splitBytes(line, fb[:0:5])
		if nf == 0 || f[0][0] == '#' {
			return Skip
		}
		first := !p.seen
		p.seen = true
		if nf != 4 {
			*is = Issue{Problem: Fields, Mode: Lenient, Layout: lenientQrels, N: int64(nf), Text: Clip(line)}
			return Bad
		}
		if first && isHeader(f[0], f[3]) {
			// seed 003 §10 writes qrels.tsv with a header line
			// "qid 0 chunk_id relevance_grade"; trec_eval would read a
			// query "qid" and then abort for want of its results
			return Header
		}
		*rec = Record{QID: f[0], DocNo: f[2], Grade: Atol(f[3])}
		return OK
	}
	lay := p.Layout
	f, nf := splitStrict(line, fb[:0:lay.Fields+1])
	if lay.Comments && nf > 0 && f[0][0] == '#' {
		return Skip
	}
	if !p.seen {
		p.seen = true
		if nf == lay.Fields && lay.Header != nil {
			hdr := make([]string, nf)
			for i := range hdr {
				hdr[i] = string(f[i])
			}
			if lay.Header(hdr) {
				return Header
			}
		}
	}
	if nf != lay.Fields {
		*is = Issue{Problem: Fields, Mode: Strict, Layout: lay, N: int64(nf)}
		return Bad
	}
	g, err := strconv.Atoi(View(f[lay.GradeCol]))
	if err != nil {
		*is = Issue{Problem: Grade, Mode: Strict, Layout: lay, Text: string(f[lay.GradeCol])}
		return Bad
	}
	*rec = Record{QID: f[0], DocNo: f[lay.Doc], Grade: int64(g)}
	return OK
}

// lenientQrels marks a Lenient qrels issue (its messages are fixed).
var lenientQrels = &Layout{Fields: 4, Doc: 2, GradeCol: 3, What: "qrels", Shape: "qid iter docno rel"}

// isHeader reports whether a first qrels line is a column header: the qid
// column says "qid" and the grade column is not a number.
func isHeader(qid, rel []byte) bool {
	return bytes.EqualFold(qid, []byte("qid")) && len(rel) > 0 && !(rel[0] >= '0' && rel[0] <= '9' || rel[0] == '-' || rel[0] == '+')
}
