package model

// B2 is one annotation of seed 000 (schema b-2). Names are the seed's.
type B2 struct {
	QueryID      string   `json:"query_id"`
	Modality     string   `json:"modality"` // pdf, image, ui_screenshot, video, code, conversation
	Question     string   `json:"question"`
	Answer       Raw      `json:"answer"`        // null when unanswerable
	AnswerFormat string   `json:"answer_format"` // str, int, float, list, none
	Gold         []B2Gold `json:"gold"`
	Scope        B2Scope  `json:"scope"`
	AsOf         string   `json:"as_of"`
	Unanswerable bool     `json:"unanswerable"`
	Origin       B2Origin `json:"origin"`
	Split        string   `json:"split"` // dev, test
}

// B2Gold is a gold entry: a source and a region in it (seed 000 §3).
type B2Gold struct {
	SourceID string         `json:"source_id"`
	Region   map[string]any `json:"region"`
}

type B2Scope struct {
	Holder   string  `json:"holder"`
	Session  *string `json:"session"`
	Scenario string  `json:"scenario"`
}

type B2Origin struct {
	Dataset  string `json:"dataset"`
	Revision string `json:"revision"`
	Item     string `json:"item"`
	License  string `json:"license"`
}

// Modalities of seed 000 §3.
var Modalities = []string{"pdf", "image", "ui_screenshot", "video", "code", "conversation"}

// CorpusEntry is one line of bench/corpus/manifest.jsonl (seed 000 §2.7): a
// source file at a dataset revision, with its hash. Extent fields are
// optional; when present, gold regions are checked against them.
type CorpusEntry struct {
	SourceID string   `json:"source_id"`
	Dataset  string   `json:"dataset"`
	Revision string   `json:"revision"`
	Path     string   `json:"path"`
	SHA256   string   `json:"sha256"`
	Modality string   `json:"modality,omitempty"`
	License  string   `json:"license,omitempty"`
	Pages    *int     `json:"pages,omitempty"` // pdf page count (pages are 1-based)
	Width    *float64 `json:"width,omitempty"` // image / ui_screenshot pixels
	Height   *float64 `json:"height,omitempty"`
	Duration *float64 `json:"duration_s,omitempty"` // video seconds
	Lines    *int     `json:"lines,omitempty"`      // code file line count
	Turns    *int     `json:"turns,omitempty"`      // conversation turn count
}

// Source is one dataset of the annotation-source registry (seed 000 §2.1:
// every source registers its annotation_source in bench/corpus_sources.py;
// eval752 reads the registry as JSONL, one dataset a line).
type Source struct {
	Dataset          string `json:"dataset"`
	AnnotationSource string `json:"annotation_source"` // who annotated the gold: must be a third party's human annotation
	License          string `json:"license,omitempty"`
	URL              string `json:"url,omitempty"`
}
