#!/usr/bin/env bash
# check_docs.sh: fail when README.md or docs/*.md name a path, program, flag,
# link target or table shape that is not true of the tree and its build.
#
#   test/docs/check_docs.sh SOURCE_DIR BUILD_DIR
#
# Run by ctest as docs.references_exist (test/docs/CMakeLists.txt). Bash,
# awk, grep, find: no Python. Every problem is printed as
# FILE:LINE: what is wrong; the exit status is 1 when there is one, 2 on a
# usage error.
#
# What is read: in README.md and docs/*.md, the inline code spans (also a
# span that runs over a line break), the lines of fenced (``` or ~~~) and
# indented code blocks (a line ending in a backslash joins the next), and
# the prose outside them.
#
# What is checked:
#  1. Repository paths. A word (in code or prose) whose first component is
#     a folder of the source tree (scripts/ examples/ test/ docs/ bench/
#     third-party/ cmake/ python/ fuzz/ runtime/ kernels/ backends/
#     extension/ conformance/ devtools/ schema/ bundled_program/ .ci/)
#     must exist in SOURCE_DIR.
#     Upstream ExecuTorch's files are written with their repository's name
#     in front (executorch/runtime/...), which this check does not read.
#     A bare name ending in .md (prose or code span) must be a page beside
#     the page that names it or at the root, or a file a program of the tree
#     writes (the name in a string literal of a .cpp/.h/.sh file).
#  2. Build paths. build/DIR/... where DIR is a folder of the source tree
#     (CMake mirrors it: build/examples/executor_runner,
#     build/conformance/ember_conformance) must exist in BUILD_DIR. Other
#     build/ paths are what scripts write when they run (build/cpu-matrix/,
#     build/conformance-ci/) and are not checked. Another build's folder
#     (build-asan/, build-aarch64/, ...) is checked only when it exists.
#  3. Commands. In a code line or span, a command (its first word after
#     VAR=value assignments; commands split at ; && || |, shell comments
#     dropped in code blocks; blocks marked text or as a language other
#     than a shell hold none) that runs a program this build makes (any
#     executable in BUILD_DIR/examples or BUILD_DIR/conformance, e.g.
#     executor_runner, ember_llm, ember_conformance, soak) may only give
#     --flags the program lists in --helpfull (gflags; --noFLAG negates
#     FLAG) or, for a program without gflags, in its usage text. In a code
#     block such a program must be given by its path (build/examples/...):
#     it is not on PATH. A --flag given to scripts/*.sh or .ci/run must
#     appear in that script's text (or be a flag of executor_runner when the
#     script runs it); a -DEMBER_* option given to cmake must be named in the
#     project's CMake files.
#  4. Links [text](target) in prose: the target exists, relative to the page;
#     a #anchor must be a heading of the target page, as GitHub derives
#     anchors: the heading's text without backticks and link targets, lower
#     case, ASCII punctuation other than '-' and '_' removed, each space a
#     '-', and -1, -2, ... added to repeats.
#  5. Tables (outside code blocks): the delimiter row and every row have as
#     many cells as the header row. Cells split at every '|' not escaped as
#     '\|', as GitHub splits them (also inside code spans).
#
# Placeholder rule: a path is a pattern, not checked, when it contains any of
# < > { } [ ] * | $ or "...", or when one of its components is an
# upper-case word (letters, digits, '_', optionally with an extension:
# TARGET, NAME, NAME.pte, PATH) other than the conventional file names
# README, LICENSE, MANIFEST, CHANGELOG and CONTRIBUTING.
#
# The three programs whose flags the docs mostly give (executor_runner,
# ember_llm, ember_conformance) must exist in BUILD_DIR: build first.

set -u -o pipefail
export LC_ALL=C

if [[ $# -ne 2 || ! -d $1 || ! -d $2 ]]; then
  echo "usage: $0 SOURCE_DIR BUILD_DIR (both existing folders)" >&2
  exit 2
fi
SRC=$(cd "$1" && pwd)
BUILD=$(cd "$2" && pwd)

PAGES=("$SRC/README.md")
for page in "$SRC"/docs/*.md; do PAGES+=("$page"); done
REQUIRED_TOOLS=(examples/executor_runner examples/ember_llm conformance/ember_conformance)
REPO_DIRS='scripts|examples|test|docs|bench|third-party|cmake|python|fuzz|runtime|kernels|backends|extension|conformance|devtools|schema|bundled_program'
CONVENTIONAL_NAMES=' README LICENSE MANIFEST CHANGELOG CONTRIBUTING '
set -f  # words are split unquoted below: no globbing of their '*'

PROBLEMS=0
declare -A TOOL_FLAGS=() ANCHORS=() CMAKE_NAMES=() WRITTEN_NAMES=()

# problem FILE LINE MESSAGE: print one problem, FILE relative to SOURCE_DIR.
problem() {
  printf '%s:%s: %s\n' "${1#"$SRC"/}" "$2" "$3"
  PROBLEMS=$((PROBLEMS + 1))
}

# ---------------------------------------------------------------------------
# Reading markdown (awk, POSIX: mawk and gawk both run it)

# extract PAGE: one record per line, fields separated by tabs:
#   LINE  B  LANG  TEXT    a code-block line (LANG: the fence's info word, or -)
#   LINE  S  -     TEXT    an inline code span
#   LINE  P  -     TEXT    prose, code spans and link targets taken out
#   LINE  L  -     TARGET  a link's target
extract() {
  awk '
    function emit(line, kind, lang, text) {
      gsub(/\t/, " ", text)
      if (text ~ /[^ ]/) print line "\t" kind "\t" lang "\t" text
    }
    # The line of byte POS of the prose buffer (it may join lines).
    function line_of(pos,   i, l) {
      l = seg_line[1]
      for (i = 2; i <= nseg; i++) if (pos >= seg_pos[i]) l = seg_line[i]
      return l
    }
    # End of the backtick run of exactly RUN ticks at or after FROM, 0 if none.
    function closing(s, from, run,   n, j, k) {
      n = length(s)
      for (j = from; j <= n; j++) {
        if (substr(s, j, 1) != "`") continue
        k = j
        while (k <= n && substr(s, k, 1) == "`") k++
        if (k - j == run) return j
        j = k - 1
      }
      return 0
    }
    # Scan the prose buffer: with EMITTING, print its spans, links and prose;
    # returns 1 when a code span opened in it is still open at its end.
    function scan(s, emitting,   n, i, j, k, c, run, content, prose, t) {
      n = length(s); i = 1; prose = ""
      while (i <= n) {
        c = substr(s, i, 1)
        if (c == "\\") { prose = prose substr(s, i, 2); i += 2; continue }
        if (c != "`") { prose = prose c; i++; continue }
        j = i
        while (j <= n && substr(s, j, 1) == "`") j++
        run = j - i
        k = closing(s, j, run)
        if (k == 0) {  # no closing run: the ticks are text
          if (!emitting) return 1
          prose = prose substr(s, i, run); i = j; continue
        }
        content = substr(s, j, k - j)
        sub(/^ /, "", content); sub(/ $/, "", content)
        if (emitting) emit(line_of(i), "S", "-", content)
        prose = prose " "
        i = k + run
      }
      if (!emitting) return 0
      while (match(prose, /\]\([^)]*\)/)) {
        t = substr(prose, RSTART + 2, RLENGTH - 3)
        sub(/^ +/, "", t); sub(/ .*/, "", t)
        emit(seg_line[1], "L", "-", t)
        prose = substr(prose, 1, RSTART) " " substr(prose, RSTART + RLENGTH)
      }
      emit(seg_line[1], "P", "-", prose)
      return 0
    }
    function flush_prose() {
      if (nseg > 0) scan(buf, 1)
      buf = ""; nseg = 0
    }
    function add_prose(text, line) {
      if (nseg == 0) buf = text
      else buf = buf " " text
      nseg++
      seg_line[nseg] = line
      seg_pos[nseg] = length(buf) - length(text) + 1
      # A span left open joins the next line (at most 4 lines: a lone tick
      # in text must not swallow the page).
      if (!scan(buf, 0) || nseg >= 4) flush_prose()
    }
    function code_line(text, line) {
      if (cont == "") cont_line = line
      if (text ~ /\\[ \t]*$/) {
        sub(/\\[ \t]*$/, "", text)
        cont = cont text " "
        return
      }
      emit(cont_line, "B", lang, cont text)
      cont = ""
    }
    function flush_code() {
      if (cont != "") emit(cont_line, "B", lang, cont)
      cont = ""
    }
    BEGIN { fence = ""; icode = 0; blank = 1; lastnb = ""; cont = ""; nseg = 0 }
    {
      line = $0
      sub(/\r$/, "", line)
      if (fence != "") {
        t = line
        sub(/^[ \t]+/, "", t); sub(/[ \t]+$/, "", t)
        if (substr(t, 1, length(fence)) == fence && t ~ /^(`+|~+)$/) {
          flush_code(); fence = ""
        } else {
          code_line(line, NR)
        }
        next
      }
      if (match(line, /^[ \t]*(```+|~~~+)/)) {
        flush_prose(); flush_code()
        fence = substr(line, RSTART, RLENGTH)
        sub(/^[ \t]+/, "", fence)
        lang = substr(line, RSTART + RLENGTH)
        sub(/^[ \t{.]+/, "", lang); sub(/[ \t,}].*/, "", lang)
        if (lang == "") lang = "-"
        icode = 0; blank = 0
        next
      }
      if (line ~ /^[ \t]*$/) {
        flush_prose(); blank = 1
        next
      }
      # Indented code: 4 spaces (or a tab) after a blank line, not inside a
      # list (the last prose line was neither an item nor indented).
      if (line ~ /^(    |\t)/ && (icode || (blank && lastnb !~ /^([ \t]|[-*+] |[0-9]+\. )/))) {
        if (!icode) { flush_code(); lang = "-" }
        icode = 1; blank = 0
        t = line
        sub(/^(    |\t)/, "", t)
        code_line(t, NR)
        next
      }
      if (icode) { flush_code(); icode = 0 }
      blank = 0; lastnb = line
      add_prose(line, NR)
    }
    END { flush_prose(); flush_code() }
  ' "$1"
}

# anchors PAGE: the GitHub anchor of every heading (outside code), one a line.
anchors() {
  awk '
    BEGIN { punct = "!\"#$%&'\''()*+,./:;<=>?@[\\]^`{|}~"; fence = "" }
    function slug(s,   out, i, c) {
      while (match(s, /\]\([^)]*\)/)) s = substr(s, 1, RSTART) substr(s, RSTART + RLENGTH)
      s = tolower(s); out = ""
      for (i = 1; i <= length(s); i++) {
        c = substr(s, i, 1)
        if (c == " ") out = out "-"
        else if (index(punct, c) == 0) out = out c
      }
      return out
    }
    /^[ \t]*(```|~~~)/ { fence = !fence; next }
    fence { next }
    /^#+[ \t]/ {
      h = $0
      sub(/^#+[ \t]+/, "", h); sub(/[ \t]+#+[ \t]*$/, "", h); sub(/[ \t]+$/, "", h)
      a = slug(h)
      if (a in seen) { seen[a]++; print a "-" seen[a] } else { seen[a] = 0; print a }
    }
  ' "$1"
}

# table_problems PAGE: LINE<TAB>message for each table row whose cell count
# differs from its header row's.
table_problems() {
  awk '
    function cells(s,   n, i) {
      sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s)
      if (substr(s, 1, 1) == "|") s = substr(s, 2)
      if (s ~ /\|$/ && s !~ /\\\|$/) s = substr(s, 1, length(s) - 1)
      n = 1
      for (i = 1; i <= length(s); i++) {
        if (substr(s, i, 1) == "\\") { i++; continue }
        if (substr(s, i, 1) == "|") n++
      }
      return n
    }
    /^[ \t]*(```|~~~)/ { fence = !fence; intable = 0; prev = ""; next }
    fence { next }
    {
      row = ($0 ~ /^ ? ? ?\|/)
      if (intable && row) {
        n = cells($0)
        if (n != header)
          print NR "\t" "table row has " n " cells, its header (line " hline ") has " header
        next
      }
      intable = 0
      if (row && prev ~ /^ ? ? ?\|/ && $0 ~ /^[ \t|:-]+$/ && $0 ~ /-/) {
        header = cells(prev); hline = NR - 1; intable = 1
        n = cells($0)
        if (n != header)
          print NR "\t" "table delimiter row has " n " cells, its header has " header
      }
      prev = $0
    }
  ' "$1"
}

# ---------------------------------------------------------------------------
# What exists

# is_pattern PATH: true when PATH is a placeholder pattern (see the header).
is_pattern() {
  local path=$1 part stem
  [[ $path == *[\<\>{}\[\]\*\|\$]* || $path == *...* ]] && return 0
  local IFS=/
  for part in $path; do
    stem=${part%%.*}
    if [[ $stem =~ ^[A-Z][A-Z0-9_]*$ && $CONVENTIONAL_NAMES != *" $stem "* ]]; then
      return 0
    fi
  done
  return 1
}

# page_anchors FILE: " a b c " of FILE's headings (cached).
page_anchors() {
  if [[ -z ${ANCHORS[$1]+set} ]]; then
    ANCHORS[$1]=" $(anchors "$1" | tr '\n' ' ') "
  fi
  printf '%s' "${ANCHORS[$1]}"
}

# is_cmake_name NAME: NAME appears in a CMakeLists.txt, *.cmake or
# CMakePresets.json of the source tree (build folders and .deps left out).
is_cmake_name() {
  if [[ ${#CMAKE_NAMES[@]} -eq 0 ]]; then
    local name
    while read -r name; do CMAKE_NAMES[$name]=1; done < <(
      find -L "$SRC" \( -name 'build*' -o -name '.*' \) -prune -o \
        \( -name CMakeLists.txt -o -name '*.cmake' -o -name CMakePresets.json \) -print0 |
        xargs -0 grep -ohE 'EMBER_[A-Z0-9_]+' | sort -u)
    CMAKE_NAMES[.]=1  # cached, even when empty
  fi
  [[ -n ${CMAKE_NAMES[$1]+set} ]]
}

# is_written_name NAME: a .cpp/.h/.sh file of the tree has NAME in a string
# literal ("NAME" or "dir/NAME"): a file a program writes (cached).
is_written_name() {
  if [[ -z ${WRITTEN_NAMES[$1]+set} ]]; then
    if grep -RqE --include='*.cpp' --include='*.h' --include='*.sh' \
        --exclude-dir='build*' --exclude-dir='.*' "[\"/]${1//./\\.}\"" "$SRC"; then
      WRITTEN_NAMES[$1]=1
    else
      WRITTEN_NAMES[$1]=0
    fi
  fi
  [[ ${WRITTEN_NAMES[$1]} == 1 ]]
}

# built_tool WORD: the executable a command word runs from the build folder
# (build/examples/X, or a bare X found in BUILD/examples or BUILD/conformance);
# prints nothing when WORD is not one.
built_tool() {
  local word=$1 dir
  if [[ $word == build/* ]]; then
    [[ -f $BUILD/${word#build/} && -x $BUILD/${word#build/} ]] && printf '%s' "$BUILD/${word#build/}"
  elif [[ $word =~ ^[A-Za-z0-9_.-]+$ ]]; then
    for dir in examples conformance; do
      if [[ -f $BUILD/$dir/$word && -x $BUILD/$dir/$word ]]; then
        printf '%s' "$BUILD/$dir/$word"
        return
      fi
    done
  fi
}

# tool_flags TOOL: " flag1 flag2 " that TOOL accepts (cached): the names in
# its gflags --helpfull, else every --name in its usage text.
tool_flags() {
  local tool=$1 help
  if [[ -z ${TOOL_FLAGS[$tool]+set} ]]; then
    help=$(timeout 20 "$tool" --helpfull 2>&1 < /dev/null)
    if [[ $help == *"Flags from"* ]]; then
      TOOL_FLAGS[$tool]=" $(sed -n 's/^    -\([A-Za-z0-9_]*\)\( .*\)\{0,1\}$/\1/p' <<< "$help" | tr '\n' ' ') "
    else
      help=$(timeout 20 "$tool" --help 2>&1 < /dev/null)
      TOOL_FLAGS[$tool]=" $(grep -oE -- '--[A-Za-z0-9_-]+' <<< "$help" | sed 's/^--//' | tr '\n' ' ') "
    fi
  fi
  printf '%s' "${TOOL_FLAGS[$tool]}"
}

# stale_hint TOOL FLAG: a note when a source newer than TOOL defines FLAG.
stale_hint() {
  local src
  src=$(grep -RlE --include='*.cpp' "DEFINE_[a-z0-9_]+\($2," "$SRC/examples" "$SRC/conformance" \
          "$SRC/extension" 2>/dev/null | head -n 1)
  if [[ -n $src && $src -nt $1 ]]; then
    printf ' (%s defines it and is newer than the binary: rebuild)' "${src#"$SRC"/}"
  fi
}

# ---------------------------------------------------------------------------
# Checks on one word or command

# check_path PAGE LINE WORD: checks 1 and 2 on one word.
check_path() {
  local page=$1 line=$2 word=$3 top rest
  if [[ $word =~ ^($REPO_DIRS)(/|$) || $word == .ci/* ]]; then
    [[ $word == */* ]] || return 0
    is_pattern "$word" && return 0
    [[ -e $SRC/$word ]] || problem "$page" "$line" "$word: no such file or folder in the source tree"
  elif [[ $word == build/?* ]]; then
    rest=${word#build/}
    top=${rest%%/*}
    [[ $rest == */* && -d $SRC/$top && $top != .* ]] || return 0
    is_pattern "$word" && return 0
    [[ -e $BUILD/$rest ]] || problem "$page" "$line" \
      "$word: not in the build folder ($BUILD/$rest does not exist)"
  elif [[ $word =~ ^(build-[A-Za-z0-9_.-]+)/. ]]; then
    [[ -d $SRC/${BASH_REMATCH[1]} ]] || return 0
    is_pattern "$word" && return 0
    [[ -e $SRC/$word ]] || problem "$page" "$line" "$word: not in $SRC/${BASH_REMATCH[1]}"
  fi
}

# check_md_name PAGE LINE WORD: a bare NAME.md names a page that exists.
check_md_name() {
  local page=$1 line=$2 word=$3
  [[ $word =~ ^[A-Za-z0-9_.-]+\.md$ ]] || return 0
  [[ -e $(dirname "$page")/$word || -e $SRC/$word ]] && return 0
  is_written_name "$word" && return 0
  problem "$page" "$line" "$word: no such page beside $(basename "$page") or at the root"
}

# check_words PAGE LINE KIND TEXT: checks 1 and 2 on every word of TEXT.
check_words() {
  local page=$1 line=$2 kind=$3 text=$4 word
  for word in ${text//[\"\'(),;=:]/ }; do
    if [[ $kind == P ]]; then  # prose: drop emphasis and sentence punctuation
      word=${word#"${word%%[!*_]*}"}
      word=${word%"${word##*[!*_]}"}
    fi
    word=${word%%[.!?]}
    [[ -n $word ]] || continue
    check_path "$page" "$line" "$word"
    [[ $kind == B ]] || check_md_name "$page" "$line" "$word"
  done
}

# check_flag_list PAGE LINE LABEL ACCEPT TOOL ARGS...: each --flag of ARGS
# must be in ACCEPT (" a b "); TOOL (may be empty) for the stale-build hint.
check_flag_list() {
  local page=$1 line=$2 label=$3 accept=$4 tool=$5 arg name
  shift 5
  for arg in "$@"; do
    arg=${arg#\[}
    arg=${arg%%]*}
    [[ $arg =~ ^--([A-Za-z][A-Za-z0-9_-]*) ]] || continue
    name=${BASH_REMATCH[1]}
    [[ $accept == *" $name "* ]] && continue
    [[ $name == no?* && $accept == *" ${name#no} "* ]] && continue
    problem "$page" "$line" "$label has no flag --$name${tool:+$(stale_hint "$tool" "$name")}"
  done
}

# check_command PAGE LINE KIND LANG WORDS...: check 3 on one command.
check_command() {
  local page=$1 line=$2 kind=$3 lang=$4 word tool accept script
  shift 4
  while [[ $# -gt 0 && ( $1 =~ ^[A-Za-z_][A-Za-z0-9_]*= || $1 == '$' ) ]]; do shift; done
  [[ $# -gt 0 ]] || return 0
  word=$1
  shift
  tool=$(built_tool "$word")
  if [[ -n $tool ]]; then
    if [[ $kind == B && $word != */* ]]; then
      problem "$page" "$line" "$word is not on PATH: write the path it is built at, build/${tool#"$BUILD"/}"
    fi
    check_flag_list "$page" "$line" "${tool#"$BUILD"/}" "$(tool_flags "$tool")" "$tool" "$@"
  elif [[ $word == scripts/?* || $word == .ci/?* ]]; then
    script=$SRC/$word
    [[ -f $script ]] || return 0  # check_path reports it
    accept=" $(grep -oE -- '--[A-Za-z0-9_-]+' "$script" | sed 's/^--//' | tr '\n' ' ') "
    if grep -q 'executor_runner' "$script" && [[ -x $BUILD/examples/executor_runner ]]; then
      accept+="$(tool_flags "$BUILD/examples/executor_runner")"
    fi
    check_flag_list "$page" "$line" "$word" "$accept" "" "$@"
  elif [[ $word == cmake ]]; then
    for word in "$@"; do
      [[ $word =~ ^-D(EMBER_[A-Z0-9_]+) ]] || continue
      is_cmake_name "${BASH_REMATCH[1]}" ||
        problem "$page" "$line" "cmake option -D${BASH_REMATCH[1]} is not named in any CMake file"
    done
  fi
}

# check_commands PAGE LINE KIND LANG TEXT: check 3 on every command of TEXT.
check_commands() {
  local page=$1 line=$2 kind=$3 lang=$4 text=$5 cmd
  case $lang in
    c|cpp|c++|cmake|python|py|json|yaml|toml|ini|text|txt|plain|output|log|csv|markdown|md) return 0 ;;
  esac
  if [[ $kind == B ]]; then  # drop the shell comment
    [[ $text =~ ^[[:space:]]*# ]] && return 0
    text=${text%%[[:space:]]#*}
  fi
  text=${text//&&/;}
  text=${text//||/;}
  text=${text//|/;}
  local IFS=';'
  for cmd in $text; do
    IFS=$' \t\n'
    # shellcheck disable=SC2086  # split into words on purpose (noglob is on)
    check_command "$page" "$line" "$kind" "$lang" $cmd
  done
}

# check_link PAGE LINE TARGET: check 4 on one link.
check_link() {
  local page=$1 line=$2 target=$3 path anchor file
  [[ $target =~ ^[A-Za-z][A-Za-z0-9+.-]*: ]] && return 0  # https:, mailto:
  path=${target%%#*}
  anchor=
  [[ $target == *#* ]] && anchor=${target#*#}
  if [[ -z $path ]]; then
    file=$page
  else
    file=$(dirname "$page")/$path
    if [[ ! -e $file ]]; then
      problem "$page" "$line" "link target $path does not exist"
      return
    fi
  fi
  if [[ -n $anchor && $file == *.md ]] && [[ $(page_anchors "$file") != *" $anchor "* ]]; then
    problem "$page" "$line" "link anchor #$anchor is not a heading of ${file#"$SRC"/}"
  fi
}

# ---------------------------------------------------------------------------

check_page() {
  local page=$1 line kind lang text
  while IFS=$'\t' read -r line kind lang text; do
    case $kind in
      L) check_link "$page" "$line" "$text" ;;
      *)
        check_words "$page" "$line" "$kind" "$text"
        [[ $kind == P ]] || check_commands "$page" "$line" "$kind" "$lang" "$text"
        ;;
    esac
  done < <(extract "$page")
  while IFS=$'\t' read -r line text; do
    problem "$page" "$line" "$text"
  done < <(table_problems "$page")
}

# check_tools_built: stop (exit 1) when BUILD_DIR lacks a required tool, so
# that an unbuilt folder reads as that and not as a page of stale paths.
check_tools_built() {
  local tool missing=0
  for tool in "${REQUIRED_TOOLS[@]}"; do
    if [[ ! -x $BUILD/$tool ]]; then
      echo "check_docs.sh: $BUILD/$tool is not built; build first (cmake --build $BUILD): the docs' paths and flags are checked against the build" >&2
      missing=1
    fi
  done
  [[ $missing == 0 ]] || exit 1
}

main() {
  local page
  check_tools_built
  for page in "${PAGES[@]}"; do
    check_page "$page"
  done
  if [[ $PROBLEMS -gt 0 ]]; then
    echo "check_docs.sh: $PROBLEMS problem(s) in README.md and docs/*.md" >&2
    exit 1
  fi
  echo "check_docs.sh: README.md and docs/*.md: every path, flag, link and table checked"
}

main
