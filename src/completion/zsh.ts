// zsh completion: the same tables as bash, with descriptions for commands and flags.
import { quote, tables, type Tree } from './tree.js';

const entries = (pairs: [string, string][]) => pairs.map(([k, v]) => `  ${quote(k)} ${quote(v)}`).join('\n');

export function zshScript(tree: Tree): string {
  const t = tables(tree);
  // "--flag:description" lines, for _describe
  const described = t.options.map(([path, options]): [string, string] => [
    path,
    options
      .flatMap((o) =>
        o.flags.filter((f) => f.startsWith('--')).map((f) => `${f.replace(/:/g, '\\:')}:${o.description.replace(/\n/g, ' ')}`),
      )
      .join('\n'),
  ]);
  return `#compdef wsctl
# zsh completion for wsctl. Generated from the command tree by \`npm run completions\`; do not edit.
# Install: save it as _wsctl in a folder of your $fpath (e.g. ~/.zfunc, with fpath+=~/.zfunc before compinit).

typeset -gA _wsctl_subs _wsctl_desc _wsctl_walk _wsctl_opts _wsctl_vals _wsctl_args _wsctl_ids
_wsctl_subs=(
${entries(t.subs)}
)
_wsctl_desc=(
${entries(t.descriptions)}
)
_wsctl_walk=(
${entries(t.walk)}
)
_wsctl_opts=(
${entries(described)}
)
_wsctl_vals=(
${entries(t.values)}
)
_wsctl_args=(
${entries(t.args)}
)
_wsctl_ids=(
${entries(t.ids)}
)

_wsctl_values() {
  case $1 in
    words:*) compadd -- \${=\${1#words:}} ;;
    files) _files ;;
    profiles) compadd -- \${(f)"$(wsctl __complete profiles 2>/dev/null)"} ;;
    ids:*)
      # The ids remembered for the workspace this line names, most recent first, with their descriptions.
      local line id
      local -a described
      for line in \${(f)"$(wsctl __complete ids \${1#ids:} -- \${words[2,CURRENT-1]} 2>/dev/null)"}; do
        id=\${line%%$'\\t'*}
        [[ $id =~ '^[A-Za-z0-9._:@+][A-Za-z0-9._:@+-]*$' ]] || continue
        if [[ $line == *$'\\t'* ]]; then described+=("\${id//:/\\\\:}:\${line#*$'\\t'}"); else described+=("\${id//:/\\\\:}"); fi
      done
      (( \${#described} )) && _describe -V -t ids 'id' described ;;
  esac
}

_wsctl() {
  local cmdpath=wsctl word prev cur=\${words[CURRENT]} name
  local -i i positional=0
  local -a entries
  for (( i = 2; i < CURRENT; i++ )); do
    word=\${words[i]}
    if [[ $word == -* ]]; then
      [[ $word != *=* && -n \${_wsctl_vals[$cmdpath|$word]} ]] && (( i++ ))
    elif (( positional == 0 )) && [[ -n \${_wsctl_walk[$cmdpath|$word]} ]]; then
      cmdpath=\${_wsctl_walk[$cmdpath|$word]}
    else
      (( positional++ ))
    fi
  done
  prev=\${words[CURRENT-1]}
  if (( CURRENT > 2 )) && [[ $prev == -* && -n \${_wsctl_vals[$cmdpath|$prev]} ]]; then
    _wsctl_values \${_wsctl_vals[$cmdpath|$prev]}
  elif [[ $cur == -* ]]; then
    entries=(\${(f)_wsctl_opts[$cmdpath]})
    _describe -t options 'option' entries
  elif (( positional == 0 )) && [[ -n \${_wsctl_subs[$cmdpath]} ]]; then
    for name in \${=_wsctl_subs[$cmdpath]}; do entries+=("$name:\${_wsctl_desc[$cmdpath $name]}"); done
    [[ $cmdpath == wsctl ]] && for name in \${(f)"$(wsctl __complete aliases 2>/dev/null)"}; do entries+=("$name:alias"); done
    _describe -t commands 'command' entries
    # A noun that runs itself takes its own argument too (wsctl ids <kind>).
    [[ -n \${_wsctl_args[$cmdpath]} ]] && _wsctl_values \${_wsctl_args[$cmdpath]}
  elif [[ -n \${_wsctl_ids[$cmdpath|$positional]} ]]; then
    _wsctl_values ids:\${_wsctl_ids[$cmdpath|$positional]}
  elif (( positional == 0 )) && [[ -n \${_wsctl_args[$cmdpath]} ]]; then
    _wsctl_values \${_wsctl_args[$cmdpath]}
  fi
}

if [[ $funcstack[1] == _wsctl ]]; then
  _wsctl "$@"
else
  compdef _wsctl wsctl
fi
`;
}
