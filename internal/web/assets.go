package web

import "embed"

// Static holds the pages: shared/ (modules every game's page uses, served
// at /shared/), front/ (the front page, served at /) and one folder per
// game (spider/ at /spider/, arlington/ at /arlington/); HTML, CSS and
// JavaScript modules served as they are (no build step). See urlPaths.
//
//go:embed static
var Static embed.FS
