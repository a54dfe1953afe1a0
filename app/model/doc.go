// Package model holds the typed records of every input format eval752 reads.
//
// The JSON names here are the project's definition of the formats (see
// FORMATS.md and static/schemas/). Where a seed fixes a name, the seed's name is
// used verbatim; where a seed leaves it open, the choice is documented on the
// field. Pointers mark fields whose absence differs from their zero value.
//
// A record is decoded from one JSONL line (or one JSON file) after the line has
// been read losslessly; records that fail to decode into these structs are still
// reported by the schema check and skipped by typed rules.
package model

import "encoding/json"

// Format identifies an input format. The string values are stable: they appear
// in the CLI's --format flag, in JSON reports and in the schemas' file names
// (static/schemas/<format>.schema.json).
type Format string

const (
	FormatBundle         Format = "eval752.bundle"     // .eval752.zip (seed 004)
	FormatItem           Format = "eval752.item"       // sections/*.jsonl items (seed 004)
	FormatManifest       Format = "eval752.manifest"   // manifest.json
	FormatMeta           Format = "eval752.meta"       // meta.json
	FormatRunConfig      Format = "eval752.run_config" // run_config.json
	FormatResult         Format = "eval752.result"     // results.jsonl
	FormatAtom           Format = "eval752.atom"       // atom table of a run (corpus/atoms.jsonl)
	FormatB2             Format = "b2.annotation"      // seed 000 annotation set
	FormatCorpusManifest Format = "b2.corpus_manifest" // seed 000 bench/corpus/manifest.jsonl
	FormatSources        Format = "b2.sources"         // seed 000 annotation-source registry
	FormatV2Question     Format = "v2.question"        // seed 002 test set v2
	FormatClause         Format = "v2.clause"          // seed 002 clause index
	FormatRAGQuestion    Format = "rag.question"       // seed 003 §4.3 questions.jsonl
	FormatRAGDocument    Format = "rag.document"       // seed 003 §1.3 documents.jsonl
	FormatRAGChunk       Format = "rag.chunk"          // seed 003 chunks.jsonl
	FormatRAGPage        Format = "rag.page"           // seed 003 pages.jsonl
	FormatRAGJudgment    Format = "rag.judgment"       // seed 003 §10 anchored_judgments.jsonl
	FormatRAGPrediction  Format = "rag.prediction"     // seed 003 §6.2 predictions.jsonl
	FormatRAGConfig      Format = "rag.config"         // seed 003 §10 config.yaml
	FormatRAGMetrics     Format = "rag.metrics"        // seed 003 §10 runs/<id>/metrics.json (claimed figures)
	FormatRAGErrors      Format = "rag.errors"         // seed 003 §9/§10 runs/<id>/errors.jsonl
	FormatRAGGrades      Format = "rag.grades"         // seed 003 §7 expert answer grades (eval752 format)
	FormatTRECQrels      Format = "trec.qrels"         // qid 0 docid rel
	FormatTRECRun        Format = "trec.run"           // qid Q0 docid rank score tag
	FormatUnknown        Format = ""
)

// Formats lists every format in a stable order (the order of the Formats page).
var Formats = []Format{
	FormatBundle, FormatItem, FormatManifest, FormatMeta, FormatRunConfig, FormatResult, FormatAtom,
	FormatB2, FormatCorpusManifest, FormatSources,
	FormatV2Question, FormatClause,
	FormatRAGQuestion, FormatRAGDocument, FormatRAGChunk, FormatRAGPage, FormatRAGJudgment, FormatRAGPrediction, FormatRAGConfig, FormatRAGMetrics, FormatRAGErrors, FormatRAGGrades,
	FormatTRECQrels, FormatTRECRun,
}

// Raw keeps a field's JSON text when its type varies by record (eval752's
// answer is a string for mcq_single and an array for mcq_multi).
type Raw = json.RawMessage
