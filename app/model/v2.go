package model

// V2Question is one question of seed 002's test set v2. The seed names no
// fields; eval752 defines these.
type V2Question struct {
	ID         string         `json:"id"`       // "D001", "C18", "X02", "R12"
	Category   string         `json:"category"` // direct, conditional, cross, refuse
	Question   string         `json:"question"`
	Answer     *string        `json:"answer"`     // verbatim clause text, sentences joined with 「；」; null (or the refusal phrase) for refuse
	Provenance []V2Provenance `json:"provenance"` // (doc, clause); empty for refuse
	Joint      bool           `json:"joint"`      // cross: every provenance must be hit
	Split      string         `json:"split"`      // dev, test
	Origin     string         `json:"origin"`     // v1 (kept from the first set) or v2 (new)
}

// V2Provenance is a compound key (doc, clause) into the clause index.
type V2Provenance struct {
	Doc    string `json:"doc"`
	Clause string `json:"clause"`
}

// V2 categories.
const (
	CategoryDirect      = "direct"
	CategoryConditional = "conditional"
	CategoryCross       = "cross"
	CategoryRefuse      = "refuse"
)

// Clause is one entry of the clause index (seed 002's corpus/index.json). The
// same (doc, clause) may appear several times — the seed's guide is a
// compilation where a clause number can carry different bodies.
type Clause struct {
	Doc      string `json:"doc"`
	DocTitle string `json:"doc_title,omitempty"`
	Clause   string `json:"clause,omitempty"` // empty for passages without a stable clause number (distractor documents)
	Text     string `json:"text"`
}
