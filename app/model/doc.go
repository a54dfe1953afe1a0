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
	FormatVerdict        Format = "eval752.verdict"    // reviewer verdicts on refuse questions (docs/audit.md)
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
	// Logs of other evaluation tools (docs/formats.md "Logs of other tools").
	FormatInspectEval     Format = "inspect.eval"            // Inspect AI .eval zip (header.json, samples/*.json, summaries, journal)
	FormatInspectLog      Format = "inspect.log"             // Inspect AI .json log (one EvalLog with its samples)
	FormatInspectSample   Format = "inspect.sample"          // one sample of an Inspect log (schema only: samples/<id>_epoch_<n>.json)
	FormatLMEvalResults   Format = "lmeval.results"          // lm-evaluation-harness results_*.json
	FormatLMEvalSamples   Format = "lmeval.samples"          // lm-evaluation-harness samples_<task>_*.jsonl (--log_samples)
	FormatPromptfoo       Format = "promptfoo.output"        // promptfoo eval -o results.json
	FormatBEIRQrels       Format = "beir.qrels"              // BEIR / ir_datasets qrels TSV: query-id corpus-id score (header line)
	FormatRanxQrels       Format = "ranx.qrels"              // ranx JSON qrels {qid: {docid: grade}}
	FormatRanxRun         Format = "ranx.run"                // ranx JSON run {qid: {docid: score}}
	FormatHELMRunSpec     Format = "helm.run_spec"           // HELM run folder: run_spec.json
	FormatHELMScenario    Format = "helm.scenario"           // HELM run folder: scenario.json
	FormatHELMState       Format = "helm.scenario_state"     // HELM run folder: scenario_state.json (instances, completions)
	FormatHELMPerInstance Format = "helm.per_instance_stats" // HELM run folder: per_instance_stats.json
	FormatHELMStats       Format = "helm.stats"              // HELM run folder: stats.json (the run's aggregated figures)
	FormatUnknown         Format = ""
)

// Formats lists every format in a stable order (the order of the Formats page).
var Formats = []Format{
	FormatBundle, FormatItem, FormatManifest, FormatMeta, FormatRunConfig, FormatResult, FormatAtom,
	FormatB2, FormatCorpusManifest, FormatSources,
	FormatV2Question, FormatClause, FormatVerdict,
	FormatRAGQuestion, FormatRAGDocument, FormatRAGChunk, FormatRAGPage, FormatRAGJudgment, FormatRAGPrediction, FormatRAGConfig, FormatRAGMetrics, FormatRAGErrors, FormatRAGGrades,
	FormatTRECQrels, FormatTRECRun,
	FormatInspectLog, FormatInspectEval, FormatLMEvalResults, FormatLMEvalSamples, FormatPromptfoo,
	FormatBEIRQrels, FormatRanxQrels, FormatRanxRun,
	FormatHELMRunSpec, FormatHELMScenario, FormatHELMState, FormatHELMPerInstance, FormatHELMStats,
}

// SubFormats have a JSON Schema but are never a file by themselves: they
// are parts of another format (an Inspect sample inside a .eval or .json
// log). Their schemas are compiled before the formats that refer to them.
var SubFormats = []Format{FormatInspectSample}

// Raw keeps a field's JSON text when its type varies by record (eval752's
// answer is a string for mcq_single and an array for mcq_multi).
type Raw = json.RawMessage
