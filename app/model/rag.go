package model

// RAGQuestion is one seed-003 evaluation question (§4.3). Names are the seed's.
type RAGQuestion struct {
	QID                    string           `json:"qid"`
	Query                  string           `json:"query"`
	Answerable             bool             `json:"answerable"`
	ReferenceAnswer        *string          `json:"reference_answer"`
	AnswerAliases          []string         `json:"answer_aliases,omitempty"`
	NumericTolerance       *NumericTol      `json:"numeric_tolerance,omitempty"`
	QuestionType           string           `json:"question_type,omitempty"`
	Difficulty             string           `json:"difficulty,omitempty"`
	Modality               string           `json:"modality,omitempty"`
	GoldEvidenceGroups     []EvidenceAnchor `json:"gold_evidence_groups"`
	Split                  string           `json:"split,omitempty"`
	SecurityClassification string           `json:"security_classification,omitempty"`
	RedistributionAllowed  *bool            `json:"redistribution_allowed,omitempty"`
	CreatedBy              string           `json:"created_by,omitempty"`
	ReviewStatus           string           `json:"review_status,omitempty"`
	Hops                   string           `json:"hops,omitempty"` // "single" or "multi" (§4.1 单跳/多跳); CompleteHit is reported on multi
	DuplicateFamilyID      string           `json:"duplicate_family_id,omitempty"`
}

// NumericTol is the tolerance of a numeric answer: |x − ref| ≤ absolute, or
// ≤ relative·|ref|, after converting to Unit.
type NumericTol struct {
	Absolute *float64 `json:"absolute,omitempty"`
	Relative *float64 `json:"relative,omitempty"`
	Unit     string   `json:"unit,omitempty"`
}

// EvidenceAnchor is a stable source location (§4.3): doc / version / page /
// char offsets / bbox / evidence hash. In gold_evidence_groups each element is
// one evidence group; elements sharing a GroupID are alternatives of one group.
// Offsets count Unicode code points into the document version's text,
// [char_start, char_end). EvidenceSHA256 is the hex sha256 of that span's UTF-8.
type EvidenceAnchor struct {
	Required          *bool     `json:"required,omitempty"` // default true
	GroupID           string    `json:"group_id,omitempty"`
	DocID             string    `json:"doc_id"`
	DocumentVersionID string    `json:"document_version_id,omitempty"`
	PageNo            *int      `json:"page_no,omitempty"`
	CharStart         *int      `json:"char_start,omitempty"`
	CharEnd           *int      `json:"char_end,omitempty"`
	BBox              []float64 `json:"bbox,omitempty"`
	EvidenceSHA256    string    `json:"evidence_sha256,omitempty"`
	EvidenceText      *string   `json:"evidence_text,omitempty"` // internal benchmarks only (§4.3)
}

// RAGDocument is one line of documents.jsonl (§1.3). Text and CharCount are
// eval752 additions: when present, anchors are checked against them.
type RAGDocument struct {
	DocID                 string `json:"doc_id"`
	Title                 string `json:"title"`
	SourceVersion         string `json:"source_version,omitempty"`
	DocumentVersionID     string `json:"document_version_id,omitempty"`
	RawSHA256             string `json:"raw_sha256,omitempty"`
	LicenseID             string `json:"license_id,omitempty"`
	RedistributionAllowed *bool  `json:"redistribution_allowed,omitempty"`
	Confidentiality       string `json:"confidentiality,omitempty"`
	SecurityReview        string `json:"security_review,omitempty"`
	ReviewState           string `json:"review_state,omitempty"` // QUARANTINED_LOCAL_REVIEW, LOCAL_PARSED_PENDING_CLOUD_REVIEW, CLOUD_APPROVED, REJECTED
	// What a CLOUD_APPROVED approval binds (seed 003 §1.2): the reviewer
	// and raw_sha256 + parser/ocr/normalization/chunk profile hashes +
	// cloud_policy_id + outbound_manifest_sha256.
	CloudPolicyID            string  `json:"cloud_policy_id,omitempty"`
	CloudTextSHA256          string  `json:"cloud_text_sha256,omitempty"`
	OutboundManifestSHA256   string  `json:"outbound_manifest_sha256,omitempty"`
	ParserProfileHash        string  `json:"parser_profile_hash,omitempty"`
	OCRProfileHash           string  `json:"ocr_profile_hash,omitempty"`
	NormalizationProfileHash string  `json:"normalization_profile_hash,omitempty"`
	ChunkProfileHash         string  `json:"chunk_profile_hash,omitempty"`
	CloudApprovedAt          string  `json:"cloud_approved_at,omitempty"`
	CloudApprovedBy          string  `json:"cloud_approved_by,omitempty"`
	Searchable               *bool   `json:"searchable,omitempty"`
	Split                    string  `json:"split,omitempty"` // train, dev, test (§4.5: by document family)
	DuplicateFamilyID        string  `json:"duplicate_family_id,omitempty"`
	Text                     *string `json:"text,omitempty"`
	CharCount                *int    `json:"char_count,omitempty"`
	PageCount                *int    `json:"page_count,omitempty"`
	Language                 string  `json:"language,omitempty"`
}

// RAGPage is one line of pages.jsonl: a page's extent in its document's text.
type RAGPage struct {
	DocID             string  `json:"doc_id"`
	DocumentVersionID string  `json:"document_version_id,omitempty"`
	PageNo            int     `json:"page_no"`
	CharStart         *int    `json:"char_start,omitempty"`
	CharEnd           *int    `json:"char_end,omitempty"`
	Text              *string `json:"text,omitempty"`
}

// RAGChunk is one line of chunks.jsonl: a run's retrieval unit and its extent.
type RAGChunk struct {
	ChunkID           string    `json:"chunk_id"`
	DocID             string    `json:"doc_id"`
	DocumentVersionID string    `json:"document_version_id,omitempty"`
	PageNo            *int      `json:"page_no,omitempty"`
	CharStart         *int      `json:"char_start,omitempty"`
	CharEnd           *int      `json:"char_end,omitempty"`
	BBox              []float64 `json:"bbox,omitempty"`
	Text              string    `json:"text,omitempty"`
	Searchable        *bool     `json:"searchable,omitempty"`
	ObservedAt        string    `json:"observed_at,omitempty"`
	Holder            string    `json:"holder,omitempty"`
}

// RAGJudgment is one line of anchored_judgments.jsonl (§10): a graded 0–3
// judgment anchored to a source location.
type RAGJudgment struct {
	SchemaVersion      any       `json:"schema_version"`
	QID                string    `json:"qid"`
	Grade              int       `json:"grade"`
	Reason             string    `json:"reason,omitempty"`
	DocID              string    `json:"doc_id"`
	DocumentVersionID  string    `json:"document_version_id,omitempty"`
	PageNo             *int      `json:"page_no,omitempty"`
	CharStart          *int      `json:"char_start,omitempty"`
	CharEnd            *int      `json:"char_end,omitempty"`
	BBox               []float64 `json:"bbox,omitempty"`
	EvidenceSHA256     string    `json:"evidence_sha256,omitempty"`
	AnnotatorID        string    `json:"annotator_id,omitempty"`
	AdjudicationStatus string    `json:"adjudication_status,omitempty"`
}

// RAGPrediction is one line of predictions.jsonl (§6.2). RunID is an eval752
// addition (default: the file's run name from config.yaml or its file name).
type RAGPrediction struct {
	RunID             string             `json:"run_id,omitempty"`
	QID               string             `json:"qid"`
	RetrievedChunkIDs []string           `json:"retrieved_chunk_ids"`
	VectorScores      []float64          `json:"vector_scores,omitempty"`
	RerankedChunkIDs  []string           `json:"reranked_chunk_ids,omitempty"`
	RerankScores      []float64          `json:"rerank_scores,omitempty"`
	Answer            *string            `json:"answer"`
	Citations         []Citation         `json:"citations,omitempty"`
	LatencyMS         map[string]float64 `json:"latency_ms,omitempty"`
	Usage             map[string]float64 `json:"usage,omitempty"`
	Refused           *bool              `json:"refused,omitempty"`
	// Error is the pipeline's error for this question (a timeout, a rate
	// limit), an eval752 addition as in results.jsonl; seed 003 §9's
	// SYSTEM_TIMEOUT / SYSTEM_RATE_LIMIT are read from it.
	Error string `json:"error,omitempty"`
}

// Citation maps a generated citation label to a real chunk (§6.2).
type Citation struct {
	Label   string `json:"label"`
	ChunkID string `json:"chunk_id"`
}

// RAGConfig is config.yaml (§10), kept as the flat key → scalar mapping the
// seed shows; values are strings, numbers, booleans or null.
type RAGConfig map[string]any

// RAGMetrics is a run's metrics.json (§10): the figures the run claims,
// metric name → number, optionally under a "metrics" object; other values
// (run_id, a date) are metadata. eval752 recomputes each figure it knows.
type RAGMetrics map[string]any
