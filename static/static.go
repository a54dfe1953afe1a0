// Package static holds the files embedded in the binary that are not Go:
// the JSON Schemas of every input format (static/schemas/<format>.schema.json).
// They are compiled from memory by app/formats and shown on the Formats page.
package static

import "embed"

// Schemas is the schemas/ folder: one draft 2020-12 JSON Schema per format.
//
//go:embed schemas
var Schemas embed.FS
