package webtest

import (
	"context"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
)

// LayoutKey is one key press as a keyboard layout other than US English
// reports it: Key is what it types ("&", "в"), Code where it sits
// ("Digit1", "KeyD"). chromedp.KeyEvent knows US English only.
type LayoutKey struct {
	Key, Code string
	VK        int64             // Windows' virtual key code, what keyCode says (229: an input method's)
	Mods      chromedp.Modifier // chromedp.ModifierCtrl, ...
}

// Press sends k's keydown, with its text unless Ctrl, Alt or Meta is
// held (a key that types, so that a text field gets it and an Enter
// sends a form), then its keyup.
func Press(k LayoutKey) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		down := input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyDown, Key: k.Key, Code: k.Code, WindowsVirtualKeyCode: k.VK, Modifiers: int64(k.Mods)}
		if k.Mods&^chromedp.ModifierShift == 0 {
			down.Text = k.Key
			if k.Key == "Enter" {
				down.Text = "\r"
			}
		} else {
			down.Type = input.DispatchKeyEventTypeRawKeyDown
		}
		up := down
		up.Type, up.Text = input.DispatchKeyEventTypeKeyUp, ""
		for _, e := range []input.DispatchKeyEventParams{down, up} {
			if _, err := cdp.Call(ctx, t, input.DispatchKeyEvent, e); err != nil {
				return err
			}
		}
		return nil
	})
}

// InsertText types text as an input method commits a word.
func InsertText(text string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, input.InsertText, input.InsertTextParams{Text: text})
		return err
	})
}

// Locale makes the tab's default locale loc ("ar_EG", "de_DE"), as a
// browser set to that language and region: what Intl and toLocaleString
// use when given none. It holds for the tab's later pages.
func Locale(loc string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: loc})
		return err
	})
}
