package dataset

import (
	"io"
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
	q.Path = path
	first := true
	lines, lfs, err := jsonl.Lines(r, path, maxLine, func(n int, line []byte) {
		f := strings.Fields(string(line))
		if len(f) > 0 && strings.HasPrefix(f[0], "#") {
			return
		}
		if first {
			first = false
			if formats.IsQrelsHeader(f) {
				return
			}
		}
		if len(f) != 4 {
			fs = append(fs, RuleTRECSyntax.At(path, n, "", "qrels line %d has %d fields; want 4: qid iter docno grade", n, len(f)))
			return
		}
		g, perr := strconv.Atoi(f[3])
		if perr != nil {
			fs = append(fs, RuleTRECSyntax.At(path, n, "", "qrels line %d: grade %q is not an integer", n, f[3]))
			return
		}
		q.Judgments = append(q.Judgments, Qrel{Line: n, QID: f[0], DocNo: f[2], Grade: g})
	})
	return q, lines, append(lfs, fs...), err
}

// ParseRun reads a TREC run file: `qid Q0 docno rank score tag` per line
// (trec_eval's get_trec_results.c). Lines starting with '#' are skipped
// (trec_eval v10). rank is kept but need not be an integer (trec_eval
// ignores it; an unparsable rank is 0); score must be a number.
func ParseRun(r io.Reader, path string, maxLine int64) (run RunFile, lines int, fs finding.List, err error) {
	run.Path = path
	lines, lfs, err := jsonl.Lines(r, path, maxLine, func(n int, line []byte) {
		f := strings.Fields(string(line))
		if len(f) > 0 && strings.HasPrefix(f[0], "#") {
			return
		}
		if len(f) != 6 {
			fs = append(fs, RuleTRECSyntax.At(path, n, "", "run line %d has %d fields; want 6: qid Q0 docno rank score tag", n, len(f)))
			return
		}
		s, perr := strconv.ParseFloat(f[4], 64)
		if perr != nil {
			fs = append(fs, RuleTRECSyntax.At(path, n, "", "run line %d: score %q is not a number", n, f[4]))
			return
		}
		rank, _ := strconv.Atoi(f[3])
		if run.Tag == "" {
			run.Tag = f[5]
		}
		run.Lines = append(run.Lines, RunLine{Line: n, QID: f[0], DocNo: f[2], Rank: rank, Score: s, Tag: f[5]})
	})
	return run, lines, append(lfs, fs...), err
}
