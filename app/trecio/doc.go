// Package trecio reads TREC qrels and run files: one block reader that cuts
// a reader into blocks of whole lines, and one line parser that turns a
// line into a record or a located issue, in two modes.
//
//   - Lenient is trec_eval v10's reading (get_qrels.c, get_trec_results.c):
//     lines end at '\n', fields are split at C's isspace, a line whose first
//     non-space byte is '#' is skipped, a run line has at least six fields
//     (more are ignored), a qrels line exactly four, the grade is read with
//     atol and the score with atof — but a score that has no one whole
//     reading (trailing garbage, NaN, ±Inf, "1_5") is refused, not ranked.
//     It is what `eval752 trec` reads.
//   - Strict is the validator's reading (dataset.Load, the streaming
//     scorer): jsonl.Lines's line rules (CRLF, a BOM on line 1, blank lines
//     skipped, a line cap, UTF-8), strings.Fields's fields, exactly six run
//     fields and four qrels fields, the grade a Go int (strconv.Atoi) and the
//     score a finite strconv.ParseFloat reading of the whole field.
//
// The package also holds the one rank order (CompareRanked) that every
// scorer of eval752 sorts a ranking with. It imports only the standard
// library, so app/trec, app/dataset, app/itemscore and app/metrics all use
// it without an import cycle.
package trecio
