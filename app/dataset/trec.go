package dataset

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"eval752/app/finding"
	"eval752/app/formats"
	"eval752/app/jsonl"
)

// ParseQrels reads a TREC qrels file: `qid iter docno rel` per line,
// whitespace-separated (trec_eval's get_qrels.c). The iter column is ignored,
// as trec_eval does; rel must be an integer (negative grades are kept: trec_eval
// treats them as judged-unjudged). A first line such as seed 003 §10's
// "qid 0 chunk_id relevance_grade" is a header and skipped. A malformed line
// is one trec.syntax finding and reading goes on.
func ParseQrels(r io.Reader, path string, maxLine int64) (q QrelsFile, lines int, fs finding.List, err error) {
	return parseQrelsLines(r, path, maxLine, qrelsLayout{
		comments: true, header: formats.IsQrelsHeader, fields: 4, doc: 2, grade: 3,
		what: "qrels", shape: "qid iter docno grade", gradeName: "grade", gradeWant: "an integer",
	})
}

// qrelsLayout is one judgment file's columns: TREC qrels (ParseQrels) or
// BEIR's TSV (ParseBEIRQrels).
type qrelsLayout struct {
	comments           bool                  // lines starting with # are skipped (trec_eval v10)
	header             func(f []string) bool // a first line that is a header
	fields, doc, grade int                   // field count, docno and grade columns
	what, shape        string                // the file's name and line shape in messages
	gradeName          string                // what the grade column is called
	gradeWant          string                // what it must be
}

// parseQrelsLines reads judgments laid out as lay says: the qid is the
// first column; a malformed line is one trec.syntax finding and reading
// goes on.
func parseQrelsLines(r io.Reader, path string, maxLine int64, lay qrelsLayout) (q QrelsFile, lines int, fs finding.List, err error) {
	q.Path = path
	first := true
	lines, lfs, err := jsonl.Lines(r, path, maxLine, func(n int, line []byte) {
		f := strings.Fields(string(line))
		if lay.comments && len(f) > 0 && strings.HasPrefix(f[0], "#") {
			return
		}
		if first {
			first = false
			if lay.header(f) {
				return
			}
		}
		if len(f) != lay.fields {
			fs = append(fs, RuleTRECSyntax.At(path, n, "", "%s line %d has %d fields; want %d: %s", lay.what, n, len(f), lay.fields, lay.shape))
			return
		}
		g, perr := strconv.Atoi(f[lay.grade])
		if perr != nil {
			fs = append(fs, RuleTRECSyntax.At(path, n, "", "%s line %d: %s %q is not %s", lay.what, n, lay.gradeName, f[lay.grade], lay.gradeWant))
			return
		}
		q.Judgments = append(q.Judgments, Qrel{Line: n, QID: f[0], DocNo: f[lay.doc], Grade: g})
	})
	return q, lines, append(lfs, fs...), err
}

// ParseRun reads a TREC run file: `qid Q0 docno rank score tag` per line
// (trec_eval's get_trec_results.c). Lines starting with '#' are skipped
// (trec_eval v10). rank is kept but need not be an integer (trec_eval
// ignores it; an unparsable rank is 0); score must be a number.
func ParseRun(r io.Reader, path string, maxLine int64) (run RunFile, lines int, fs finding.List, err error) {
	run.Path = path
	// one copy of each query id and tag, and the document id copied out of
	// the line, so a kept RunLine does not hold its whole line
	shared := map[string]string{}
	intern := func(s string) string {
		if t, ok := shared[s]; ok {
			return t
		}
		s = strings.Clone(s)
		shared[s] = s
		return s
	}
	lines, lfs, err := jsonl.Lines(r, path, maxLine, func(n int, line []byte) {
		f := strings.Fields(string(line))
		if len(f) > 0 && strings.HasPrefix(f[0], "#") {
			return
		}
		if len(f) != 6 {
			fs = append(fs, RuleTRECSyntax.At(path, n, "", "run line %d has %d fields; want 6: qid Q0 docno rank score tag", n, len(f)))
			return
		}
		s, msg := RunScore(f[4], f[0], n)
		if msg != "" {
			fs = append(fs, RuleTRECSyntax.At(path, n, "", "%s", msg))
			return
		}
		rank, _ := strconv.Atoi(f[3])
		tag := intern(f[5])
		if run.Tag == "" {
			run.Tag = tag
		}
		run.Lines = append(run.Lines, RunLine{Line: n, QID: intern(f[0]), DocNo: strings.Clone(f[2]), Rank: rank, Score: s, Tag: tag})
	})
	return run, lines, append(lfs, fs...), err
}

// RunScore reads the score field of run line n (of query qid); msg is the
// finding's message when the score is not a finite number. Every reader of
// run files (in memory and streaming) rejects the same scores with it.
func RunScore(field, qid string, n int) (score float64, msg string) {
	s, err := strconv.ParseFloat(field, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange), strings.Contains(field, "_"):
		// "_": ParseFloat takes Go's digit separators ("1_5" is 15), C's
		// strtod — trec_eval's atof — stops there and reads 1
		return 0, fmt.Sprintf("run line %d: score %q is not a number", n, field)
	case math.IsNaN(s) || math.IsInf(s, 0):
		// NaN has no place in a ranking; ±Inf (or a number too large for
		// float64) ties with every other one
		return 0, fmt.Sprintf("run line %d: score %q is not a finite number, so the ranking of query %q is undefined", n, field, qid)
	}
	return s, ""
}

// ParseBEIRQrels reads a BEIR / ir_datasets qrels TSV: a header line
// "query-id corpus-id score", then `query-id corpus-id score` per line (tab-
// or space-separated). The judgments are TREC qrels (iter absent); a
// malformed line is one trec.syntax finding and reading goes on.
func ParseBEIRQrels(r io.Reader, path string, maxLine int64) (q QrelsFile, lines int, fs finding.List, err error) {
	return parseQrelsLines(r, path, maxLine, qrelsLayout{
		header: formats.IsBEIRHeader, fields: 3, doc: 1, grade: 2,
		what: "BEIR qrels", shape: "query-id corpus-id score", gradeName: "score", gradeWant: "an integer grade",
	})
}
