"""The Content-Security-Policy in the page: the site plays under it, and a script injected inline does not run."""

from __future__ import annotations

import random
import re

from playwright.sync_api import Page, expect

from e2e.conftest import wait_settled
from e2e.play import one_click


def test_the_site_plays_under_its_policy_and_refuses_inline_script(page: Page) -> None:
    page.goto("index.html?game=silver-bars&players=2&seed=7&bots=1&level=easy&delay=0")
    policy = page.locator("meta[http-equiv=Content-Security-Policy]").get_attribute("content") or ""
    assert "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval';" in policy and "unsafe-inline' " not in policy
    wait_settled(page)
    expect(page.locator("#table-title")).to_have_text("100 Silver Bars")
    one_click(page, random.Random(1))
    wait_settled(page)
    page.evaluate(
        """() => { window.__violations = [];
                   document.addEventListener('securitypolicyviolation',
                                             (e) => window.__violations.push(e.violatedDirective));
                   const s = document.createElement('script'); s.textContent = 'window.__pwned = 1';
                   document.body.append(s); }"""
    )
    page.wait_for_function("() => window.__violations.length > 0")
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.evaluate("window.__violations") == ["script-src-elem"]
    watch = page.watch  # type: ignore[attr-defined]
    refused = [p for p in watch.problems if re.search(r"Content Security Policy|inline script", p)]
    assert refused, "the browser reported no refusal"
    watch.problems = [p for p in watch.problems if p not in refused]
