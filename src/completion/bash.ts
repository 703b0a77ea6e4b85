// bash completion: the tree as associative arrays, walked in the shell. Only profile names and
// remembered ids call wsctl (its hidden __complete command); commands and flags never start Node.
import { quote, tables, type Tree } from './tree.js';

const entries = (pairs: [string, string][]) => pairs.map(([k, v]) => `  [${quote(k)}]=${quote(v)}`).join('\n');

export function bashScript(tree: Tree): string {
  const t = tables(tree);
  const longFlags = t.options.map(([path, options]): [string, string] => [
    path,
    options.flatMap((o) => o.flags.filter((f) => f.startsWith('--'))).join(' '),
  ]);
  return `# bash completion for wsctl. Generated from the command tree by \`npm run completions\`; do not edit.
# Install: source <(wsctl completion bash), or save it as ~/.local/share/bash-completion/completions/wsctl

declare -gA _wsctl_subs=(
${entries(t.subs)}
)
declare -gA _wsctl_walk=(
${entries(t.walk)}
)
declare -gA _wsctl_opts=(
${entries(longFlags)}
)
declare -gA _wsctl_vals=(
${entries(t.values)}
)
declare -gA _wsctl_args=(
${entries(t.args)}
)
declare -gA _wsctl_ids=(
${entries(t.ids)}
)

_wsctl_values() {
  local src="$1" cur="$2"
  case "$src" in
    words:*) COMPREPLY=($(compgen -W "\${src#words:}" -- "$cur")) ;;
    files) compopt -o filenames 2>/dev/null; COMPREPLY=($(compgen -f -- "$cur")) ;;
    profiles)
      # Names are data: compgen -W would expand $(...) inside them, so match and quote them here.
      local name
      COMPREPLY=()
      while IFS= read -r name; do
        [[ $name == "$cur"* ]] && COMPREPLY+=("$(printf '%q' "$name")")
      done < <(wsctl __complete profiles 2>/dev/null) ;;
    ids:*)
      # The ids remembered for the workspace this line names, most recent first; only safe characters, and no leading - (it would read as an option).
      local line id
      COMPREPLY=()
      while IFS= read -r line; do
        id="\${line%%$'\\t'*}"
        [[ $id == "$cur"* && $id =~ ^[A-Za-z0-9._:@+][A-Za-z0-9._:@+-]*$ ]] && COMPREPLY+=("$id")
      done < <(wsctl __complete ids "\${src#ids:}" -- "\${_wsctl_words[@]:1:_wsctl_cword-1}" 2>/dev/null)
      # bash replaces only the part of the word after its last ':'
      [[ $cur == *:* ]] && COMPREPLY=("\${COMPREPLY[@]#"\${cur%"\${cur##*:}"}"}") ;;
    *) COMPREPLY=() ;;
  esac
}

_wsctl() {
  # The line's words split at white space only: bash's COMP_WORDS also splits at '=' and ':'
  # (COMP_WORDBREAKS), which would cut --profile=work, a URL or an id in pieces.
  local -a _wsctl_words
  local -i _wsctl_cword
  if [[ -n "$COMP_LINE" ]]; then
    read -ra _wsctl_words <<< "\${COMP_LINE:0:COMP_POINT}"
    [[ \${#_wsctl_words[@]} -eq 0 || "\${COMP_LINE:COMP_POINT-1:1}" == [[:space:]] ]] && _wsctl_words+=("")
    _wsctl_cword=$((\${#_wsctl_words[@]} - 1))
  else
    _wsctl_words=("\${COMP_WORDS[@]}")
    _wsctl_cword=$COMP_CWORD
  fi
  local cur="\${_wsctl_words[_wsctl_cword]}" prev cmdpath=wsctl word
  local -i i positional=0
  for ((i = 1; i < _wsctl_cword; i++)); do
    word="\${_wsctl_words[i]}"
    if [[ "$word" == -* ]]; then
      [[ "$word" != *=* && -n "\${_wsctl_vals[$cmdpath|$word]+x}" ]] && ((i++))
    elif [[ $positional -eq 0 && -n "\${_wsctl_walk[$cmdpath|$word]+x}" ]]; then
      cmdpath="\${_wsctl_walk[$cmdpath|$word]}"
    else
      ((positional++))
    fi
  done
  prev="\${_wsctl_words[_wsctl_cword - 1]}"
  if [[ _wsctl_cword -gt 1 && "$prev" == -* && -n "\${_wsctl_vals[$cmdpath|$prev]+x}" ]]; then
    _wsctl_values "\${_wsctl_vals[$cmdpath|$prev]}" "$cur"
  elif [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "\${_wsctl_opts[$cmdpath]}" -- "$cur"))
  elif [[ $positional -eq 0 && -n "\${_wsctl_subs[$cmdpath]}" ]]; then
    COMPREPLY=($(compgen -W "\${_wsctl_subs[$cmdpath]}" -- "$cur"))
    # Aliases complete like commands (their names are letters, digits, '.', '_' and '-' only).
    [[ $cmdpath == wsctl ]] && COMPREPLY+=($(compgen -W "$(wsctl __complete aliases 2>/dev/null)" -- "$cur"))
    # A noun that runs itself takes its own argument too (wsctl ids <kind>).
    if [[ -n "\${_wsctl_args[$cmdpath]+x}" ]]; then
      local -a subs=("\${COMPREPLY[@]}")
      _wsctl_values "\${_wsctl_args[$cmdpath]}" "$cur"
      COMPREPLY=("\${subs[@]}" "\${COMPREPLY[@]}")
    fi
  elif [[ -n "\${_wsctl_ids[$cmdpath|$positional]+x}" ]]; then
    compopt -o nosort 2>/dev/null
    _wsctl_values "ids:\${_wsctl_ids[$cmdpath|$positional]}" "$cur"
  elif [[ $positional -eq 0 && -n "\${_wsctl_args[$cmdpath]+x}" ]]; then
    _wsctl_values "\${_wsctl_args[$cmdpath]}" "$cur"
  else
    COMPREPLY=()
  fi
}

complete -F _wsctl wsctl
`;
}
