"""Rulebook prose (Markdown) -> HTML: numbered sections, a table of contents, callouts, and the
data references filled in from the game.

Conventions (see docs/rulebook.md):

- `# Heading` is a numbered section (1., 2., ...), `## Heading` a sub-section; both are in the
  table of contents. `# Heading {-}` is a section without a number (appendices).
- `> [!EXAMPLE] Title` (also NOTE, TIP, IMPORTANT, WARNING, CAUTION) on the first line of a
  blockquote makes it a callout box; a blockquote without a marker is a quotation.
- `{card:id}` prints the card's current name; `{table:id ...}` and `{cards:type ...}` print a
  table or list generated from the data (`deckwright.render.datatables`).
- `<!-- ... -->` is a comment for designers, never printed. Other raw HTML prints as text.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markupsafe import Markup, escape

from ...diagnostics import Loc
from ...model import Game, RulebookFile
from ...references.selection import resolve, resolve_card
from ...references.syntax import BLOCK_KINDS, REF_PATTERN, RefSyntaxError, blank_comments, parse_ref
from .datatables import format_value, render_selection

CALLOUTS = ("example", "note", "tip", "important", "warning", "caution")
_CALLOUT = re.compile(r"^\[!([A-Za-z]+)\][ \t]*(.*)$")
_UNNUMBERED = re.compile(r"\s*\{(?:-|\.unnumbered)\}\s*$")


@dataclass
class Heading:
    level: int  # 1 for `#`, 2 for `##`, ...
    id: str
    number: str  # "3." or "" when unnumbered
    html: Markup
    text: str


@dataclass
class Prose:
    """The rendered rulebook body and what the table of contents lists."""

    html: Markup
    headings: list[Heading]
    problems: list[tuple[Loc, str]] = field(default_factory=list)

    @property
    def toc(self) -> list[Heading]:
        return [h for h in self.headings if h.level <= 2]


# ---- parsing ----------------------------------------------------------------------------------


def _ref_rule(state: StateInline, silent: bool) -> bool:
    if state.src[state.pos] != "{":
        return False
    match = REF_PATTERN.match(state.src, state.pos)
    if match is None:
        return False
    if not silent:
        token = state.push("dw_ref", "", 0)
        token.content = match.group(0)
        token.meta = {"kind": match.group(1), "body": match.group(2)}
    state.pos = match.end()
    return True


def _closing(tokens: list[Token], start: int) -> int:
    """The index of the token that closes tokens[start]."""
    depth = 0
    for i in range(start, len(tokens)):
        depth += tokens[i].nesting
        if depth == 0:
            return i
    return len(tokens) - 1


def _mark_blocks(state: StateCore) -> None:
    """Before inline parsing: unnumbered headings and callout blockquotes."""
    tokens = state.tokens
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and i + 1 < len(tokens):
            inline = tokens[i + 1]
            stripped = _UNNUMBERED.sub("", inline.content)
            token.meta["numbered"] = stripped == inline.content
            inline.content = stripped
        elif token.type == "blockquote_open" and i + 2 < len(tokens):
            if tokens[i + 1].type != "paragraph_open" or tokens[i + 2].type != "inline":
                continue
            inline = tokens[i + 2]
            first, _, rest = inline.content.partition("\n")
            match = _CALLOUT.match(first)
            if match is None or match.group(1).lower() not in CALLOUTS:
                continue
            kind, title = match.group(1).lower(), match.group(2).strip()
            token.meta["callout"] = kind
            token.meta["title"] = title
            tokens[_closing(tokens, i)].meta["callout"] = kind
            inline.content = rest
            if not rest.strip():
                tokens[i + 1].hidden = True
                tokens[i + 3].hidden = True


def _trim(children: list[Token]) -> list[Token]:
    while children and children[0].type in ("softbreak", "hardbreak"):
        children.pop(0)
    while children and children[-1].type in ("softbreak", "hardbreak"):
        children.pop()
    if children and children[0].type == "text":
        children[0].content = children[0].content.lstrip()
    if children and children[-1].type == "text":
        children[-1].content = children[-1].content.rstrip()
    return [c for c in children if not (c.type == "text" and not c.content)]


def _split_blocks(state: StateCore) -> None:
    """After inline parsing: a table or cards reference leaves its paragraph as its own block."""
    out: list[Token] = []
    tokens = state.tokens
    for token in tokens:
        for child in token.children or ():
            if child.type == "dw_ref":
                child.map = token.map  # where a problem is reported
    i = 0
    while i < len(tokens):
        token = tokens[i]
        inline = tokens[i + 1] if i + 1 < len(tokens) else None
        has_block = (
            token.type == "paragraph_open"
            and inline is not None
            and inline.type == "inline"
            and any(c.type == "dw_ref" and c.meta["kind"] in BLOCK_KINDS for c in inline.children or ())
        )
        if not has_block:
            out.append(token)
            i += 1
            continue
        closing = tokens[i + 2]
        segment: list[Token] = []

        def flush(segment: list[Token], opening=token, inline=inline, closing=closing) -> None:
            children = _trim(segment)
            if children:
                new_inline = Token("inline", "", 0, map=inline.map, level=inline.level, children=children)
                out.extend([opening, new_inline, closing])

        for child in inline.children:
            if child.type == "dw_ref" and child.meta["kind"] in BLOCK_KINDS:
                flush(segment)
                segment = []
                block = Token("dw_block", "div", 0, map=inline.map, level=token.level, block=True)
                block.content, block.meta = child.content, child.meta
                out.append(block)
            else:
                segment.append(child)
        flush(segment)
        i += 3
    state.tokens = out


def make_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable(["table", "strikethrough"])
    md.inline.ruler.before("emphasis", "dw_ref", _ref_rule)
    md.core.ruler.before("inline", "dw_mark_blocks", _mark_blocks)
    md.core.ruler.after("inline", "dw_split_blocks", _split_blocks)
    md.add_render_rule("dw_ref", _render_ref)
    md.add_render_rule("dw_block", _render_block)
    md.add_render_rule("heading_open", _render_heading_open)
    md.add_render_rule("heading_close", _render_heading_close)
    md.add_render_rule("blockquote_open", _render_blockquote_open)
    md.add_render_rule("blockquote_close", _render_blockquote_close)
    return md


# ---- rendering --------------------------------------------------------------------------------


def _problem(env: dict, token_map, message: str) -> Markup:
    file: RulebookFile = env["file"]
    line = token_map[0] + 1 if token_map else 1
    env["problems"].append((Loc(file.path, line, 1), message))
    return Markup(f'<span class="ref-error">{escape(message)}</span>')


def _ref(token: Token, env: dict):
    try:
        return parse_ref(token.meta["kind"], token.meta["body"], token.content, Loc(env["file"].path))
    except RefSyntaxError as exc:
        return str(exc)


def _render_ref(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    where = token.map or env.get("map")
    ref = _ref(token, env)
    if isinstance(ref, str):
        return _problem(env, where, ref)
    if ref.kind in BLOCK_KINDS:  # inside a heading or a table cell: no room for a block
        return _problem(env, where, f"{ref.source} must stand in a paragraph of its own")
    game: Game = env["game"]
    card, name, problems = resolve_card(game, ref)
    if problems:
        return _problem(env, where, problems[0])
    if name == "name":
        return escape(card.name)
    card_type = game.card_types.get(card.type)
    spec = (card_type.fields.get(name) or card_type.back_fields.get(name)) if card_type else None
    return format_value(game, card.get(name) if name != "type" else card.type, spec)


def _render_block(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    ref = _ref(token, env)
    if isinstance(ref, str):
        return _problem(env, token.map, ref)
    selection, problems = resolve(env["game"], ref)
    if selection is None:
        return _problem(env, token.map, "; ".join(problems))
    return render_selection(env["game"], selection) + "\n"


def _html_level(token: Token) -> int:
    return min(int(token.tag[1]) + 1, 6)


def _render_heading_open(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    heading: Heading | None = token.meta.get("heading")
    level = _html_level(token)
    if heading is None:
        return f"<h{level}>"
    css = "section" if heading.level == 1 else f"level-{heading.level}"
    number = f'<span class="secnum">{heading.number}</span> ' if heading.number else ""
    return f'<h{level} id="{heading.id}" class="{css}">{number}'


def _render_heading_close(self, tokens, idx, options, env) -> str:
    return f"</h{_html_level(tokens[idx])}>\n"


def _render_blockquote_open(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    kind = token.meta.get("callout")
    if kind is None:
        return "<blockquote>\n"
    title = token.meta.get("title") or kind.capitalize()
    return f'<aside class="callout callout-{kind}">\n<p class="callout-title">{escape(title)}</p>\n'


def _render_blockquote_close(self, tokens, idx, options, env) -> str:
    return "</aside>\n" if tokens[idx].meta.get("callout") else "</blockquote>\n"


# ---- the whole book ---------------------------------------------------------------------------


def slugify(text: str) -> str:
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii").lower()
    return re.sub(r"[^a-z0-9]+", "-", text).strip("-") or "section"


def _plain(md: MarkdownIt, children: list[Token], env: dict) -> tuple[Markup, str]:
    html = Markup(md.renderer.renderInline(children, md.options, env))
    return html, Markup(html).striptags()


def render_prose(game: Game) -> Prose:
    """Every rulebook file of the game, in order, as one HTML body."""
    md = make_parser()
    headings: list[Heading] = []
    problems: list[tuple[Loc, str]] = []
    parsed = []
    section = 0
    used: set[str] = set()
    for file in game.rulebook:
        env = {"game": game, "file": file, "problems": problems}
        tokens = md.parse(blank_comments(file.text), env)
        for i, token in enumerate(tokens):
            if token.type != "heading_open":
                continue
            level = int(token.tag[1])
            env["map"] = token.map
            html, text = _plain(md, tokens[i + 1].children or [], env)
            number = ""
            if level == 1 and token.meta.get("numbered", True):
                section += 1
                number = f"{section}."
            slug = base = slugify(f"{number} {text}" if number else text)
            n = 2
            while slug in used:
                slug, n = f"{base}-{n}", n + 1
            used.add(slug)
            heading = Heading(level, slug, number, html, text)
            token.meta["heading"] = heading
            headings.append(heading)
        parsed.append((file, tokens, env))
    parts = []
    for file, tokens, env in parsed:
        env.pop("map", None)
        parts.append(f'<div class="rulebook-file" data-file="{escape(file.name)}">\n')
        parts.append(md.renderer.render(tokens, md.options, env))
        parts.append("</div>\n")
    return Prose(Markup("".join(parts)), headings, problems)
