package webtest

import (
	"context"
	"fmt"
)

// CutChoices lists the choices of the drop-down lists (select elements)
// shown under the elements scope matches whose words their list cannot
// show whole once chosen, each as "list: words (needs N px, has M px)".
// What a choice needs is the width Chromium gives a copy of its list
// holding that choice alone, its width set by nothing but its words (the
// same font, padding, border and arrow): a list narrower than that cuts
// the words or puts them under its arrow ("default (60 s with bots or
// rated, off withou"). A list is named by its id, else its label's first words.
func CutChoices(ctx context.Context, scope string) ([]string, error) {
	var cut []string
	err := Eval(ctx, fmt.Sprintf(`[...document.querySelectorAll(%s)].flatMap((root) => [...root.querySelectorAll("select")])
	  .filter((s) => s.checkVisibility()).flatMap((s) => {
	    const has = s.getBoundingClientRect().width;
	    const name = s.id || (s.labels[0] && s.labels[0].firstChild ? s.labels[0].firstChild.textContent.trim() : "a list");
	    return [...s.options].flatMap((o) => {
	      const c = s.cloneNode(false);
	      c.removeAttribute("id");
	      c.style.cssText = "position: absolute; visibility: hidden; width: max-content; min-width: 0; max-width: none";
	      c.appendChild(new Option(o.label));
	      s.after(c);
	      const needs = c.getBoundingClientRect().width;
	      c.remove();
	      return needs > has + 0.5 ? [name + ": " + o.label + " (needs " + Math.ceil(needs) + " px, has " + Math.floor(has) + " px)"] : [];
	    });
	  })`, jsQuote(scope)), &cut)
	return cut, err
}
