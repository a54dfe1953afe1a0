package dataset

import (
	"io"

	"eval752/app/finding"
	"eval752/app/formats"
	"eval752/app/jsonl"
	"eval752/app/trecio"
)

// ParseQrels reads a TREC qrels file: `qid iter docno rel` per line,
// whitespace-separated (trec_eval's get_qrels.c). The iter column is ignored,
// as trec_eval does; rel must be an integer (negative grades are kept: trec_eval
// treats them as judged-unjudged). A first line such as seed 003 §10's
// "qid 0 chunk_id relevance_grade" is a header and skipped. A malformed line
// is one trec.syntax finding and reading goes on. Lines are read by
// trecio in its Strict mode.
func ParseQrels(r io.Reader, path string, maxLine int64) (q QrelsFile, lines int, fs finding.List, err error) {
	return parseQrelsLines(r, path, maxLine, trecio.QrelsTREC(formats.IsQrelsHeader))
}

// beirQrels is BEIR's TSV layout: a header, then `query-id corpus-id score`.
var beirQrels = &trecio.Layout{Header: formats.IsBEIRHeader, Fields: 3, Doc: 1, GradeCol: 2,
	What: "BEIR qrels", Shape: "query-id corpus-id score", GradeName: "score", GradeWant: "an integer grade"}

// parseQrelsLines reads judgments laid out as lay says: the qid is the
// first column; a malformed line is one trec.syntax finding and reading
// goes on.
func parseQrelsLines(r io.Reader, path string, maxLine int64, lay *trecio.Layout) (q QrelsFile, lines int, fs finding.List, err error) {
	q.Path = path
	var lfs finding.List
	p := trecio.QrelsParser{Mode: trecio.Strict, Layout: lay}
	var rec trecio.Record
	var is trecio.Issue
	n, err := trecio.Scan(r, trecio.Strict, maxLine, func(ln, off int64, line []byte) {
		switch p.Parse(line, &rec, &is) {
		case trecio.OK:
			q.Judgments = append(q.Judgments, Qrel{Line: int(ln), QID: string(rec.QID), DocNo: string(rec.DocNo), Grade: int(rec.Grade)})
		case trecio.Bad:
			is.Line, is.Offset = ln, off
			fs = append(fs, TRECFinding(path, &is))
		}
	}, func(is *trecio.Issue) { lfs = append(lfs, TRECFinding(path, is)) })
	return q, int(n), append(lfs, fs...), err
}

// TRECFinding is the finding of a TREC line's issue: a too long or
// non-UTF-8 line is jsonl.Lines's (jsonl.line-too-long, jsonl.invalid-utf8),
// the rest trec.syntax.
func TRECFinding(path string, is *trecio.Issue) finding.Finding {
	r := RuleTRECSyntax
	switch is.Problem {
	case trecio.TooLongRead, trecio.TooLong:
		r = jsonl.RuleLineTooLong
	case trecio.BadUTF8:
		r = jsonl.RuleInvalidUTF8
	}
	return r.At(path, int(is.Line), "", "%s", is.Message())
}

// ParseRun reads a TREC run file: `qid Q0 docno rank score tag` per line
// (trec_eval's get_trec_results.c). Lines starting with '#' are skipped
// (trec_eval v10). rank is kept but need not be an integer (trec_eval
// ignores it; an unparsable rank is 0); score must be a number. Lines are
// read by trecio in its Strict mode.
func ParseRun(r io.Reader, path string, maxLine int64) (run RunFile, lines int, fs finding.List, err error) {
	run.Path = path
	// one copy of each query id and tag, and the document id copied out of
	// the line, so a kept RunLine does not hold its whole line
	shared := map[string]string{}
	intern := func(b []byte) string {
		if t, ok := shared[string(b)]; ok {
			return t
		}
		s := string(b)
		shared[s] = s
		return s
	}
	var lfs finding.List
	var rec trecio.Record
	var is trecio.Issue
	n, err := trecio.Scan(r, trecio.Strict, maxLine, func(ln, off int64, line []byte) {
		switch trecio.ParseRun(trecio.Strict, line, &rec, &is) {
		case trecio.Skip:
			return
		case trecio.Bad:
			is.Line, is.Offset = ln, off
			fs = append(fs, TRECFinding(path, &is))
			return
		}
		tag := intern(rec.Tag)
		if run.Tag == "" {
			run.Tag = tag
		}
		run.Lines = append(run.Lines, RunLine{Line: int(ln), QID: intern(rec.QID), DocNo: string(rec.DocNo), Rank: rec.StrictRank(), Score: rec.Score, Tag: tag})
	}, func(is *trecio.Issue) { lfs = append(lfs, TRECFinding(path, is)) })
	return run, int(n), append(lfs, fs...), err
}

// ParseBEIRQrels reads a BEIR / ir_datasets qrels TSV: a header line
// "query-id corpus-id score", then `query-id corpus-id score` per line (tab-
// or space-separated). The judgments are TREC qrels (iter absent); a
// malformed line is one trec.syntax finding and reading goes on.
func ParseBEIRQrels(r io.Reader, path string, maxLine int64) (q QrelsFile, lines int, fs finding.List, err error) {
	return parseQrelsLines(r, path, maxLine, beirQrels)
}
