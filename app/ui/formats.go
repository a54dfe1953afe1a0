package ui

import (
	"encoding/json"
	"io/fs"
	"sync"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"eval752/app/model"
	"eval752/static"
)

// formatDoc is one row of the Formats view: the format and its JSON Schema
// (the same embedded file the validator compiles).
type formatDoc struct {
	ID          string
	Title       string
	Description string
	Schema      string
}

var (
	formatsOnce sync.Once
	formatDocs  []formatDoc
)

func loadFormats() []formatDoc {
	formatsOnce.Do(func() {
		for _, f := range model.Formats {
			d := formatDoc{ID: string(f)}
			b, err := fs.ReadFile(static.Schemas, "schemas/"+string(f)+".schema.json")
			if err == nil {
				d.Schema = string(b)
				var head struct {
					Title       string `json:"title"`
					Description string `json:"description"`
				}
				if json.Unmarshal(b, &head) == nil {
					d.Title, d.Description = head.Title, head.Description
				}
			}
			formatDocs = append(formatDocs, d)
		}
	})
	return formatDocs
}

func (p *Page) renderFormats() app.UI {
	docs := loadFormats()
	return app.Div().Class("formats").Body(
		app.H2().Text("Formats eval752 reads"),
		app.P().Text("Formats are detected from content; each record is checked against its JSON Schema below, then by the rules. Open a schema to see every field."),
		app.Range(docs).Slice(func(i int) app.UI {
			d := docs[i]
			title := d.Title
			if title == "" {
				title = d.ID
			}
			return app.Details().Class("format").Attr("data-test", "format").Attr("data-format", d.ID).Body(
				app.Summary().Body(
					app.Code().Text(d.ID),
					app.If(title != d.ID, func() app.UI { return app.Span().Text(" — " + title) }),
				),
				app.If(d.Description != "", func() app.UI { return app.P().Text(d.Description) }),
				app.If(d.Schema != "", func() app.UI { return app.Pre().Class("schema").Text(d.Schema) }),
				app.If(d.Schema == "", func() app.UI {
					return app.P().Class("muted").Text("No JSON Schema: this format is line-based (see the README).")
				}),
			)
		}),
	)
}
