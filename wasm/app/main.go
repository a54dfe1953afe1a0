// Command app is the browser entry point of the eval752 page (go-app v10).
// It registers the same routes as the server, then runs the UI; the core
// itself runs in wasm/worker inside a Web Worker.
package main

import (
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"eval752/app/ui"
)

func main() {
	ui.Register()
	app.RunWhenOnBrowser()
}
