package web

import "embed"

// Static holds the page: index.html, its CSS and JavaScript modules, served
// as they are (no build step). The server serves fs.Sub(Static, "static").
//
//go:embed static
var Static embed.FS
