package web

import "embed"

// Static holds the pages: shared/ (modules every game's page uses, served
// at /shared/), spider/ (the Spider page, served at /) and one folder per
// other game (served under its name); HTML, CSS and JavaScript modules
// served as they are (no build step). See urlPaths.
//
//go:embed static
var Static embed.FS
