// zsh completion: the same tables as bash, with descriptions for commands and flags.
import { quote, valueSource, type Tree } from './tree.js';

export function zshScript(tree: Tree): string {
  const subs: string[] = [];
  const desc: string[] = [];
  const walk: string[] = [];
  const opts: string[] = [];
  const vals: string[] = [];
  const args: string[] = [];
  for (const node of tree.nodes) {
    const options = [...node.options, ...tree.globals];
    subs.push(`  ${quote(node.path)} ${quote(node.subcommands.map((s) => s.name).join(' '))}`);
    for (const sub of node.subcommands) {
      desc.push(`  ${quote(`${node.path} ${sub.name}`)} ${quote(sub.description)}`);
      for (const word of [sub.name, ...sub.aliases]) walk.push(`  ${quote(`${node.path}|${word}`)} ${quote(`${node.path} ${sub.name}`)}`);
    }
    const described = options.flatMap((o) => o.flags.filter((f) => f.startsWith('--')).map((f) => `${f.replace(/:/g, '\\:')}:${o.description.replace(/\n/g, ' ')}`));
    opts.push(`  ${quote(node.path)} ${quote(described.join('\n'))}`);
    for (const option of options) {
      if (!option.value) continue;
      for (const flag of option.flags) vals.push(`  ${quote(`${node.path}|${flag}`)} ${quote(valueSource(option.value))}`);
    }
    if (node.argument) args.push(`  ${quote(node.path)} ${quote(valueSource(node.argument))}`);
  }
  return `#compdef wsctl
# zsh completion for wsctl. Generated from the command tree by \`npm run completions\`; do not edit.
# Install: save it as _wsctl in a folder of your $fpath (e.g. ~/.zfunc, with fpath+=~/.zfunc before compinit).

typeset -gA _wsctl_subs _wsctl_desc _wsctl_walk _wsctl_opts _wsctl_vals _wsctl_args
_wsctl_subs=(
${subs.join('\n')}
)
_wsctl_desc=(
${desc.join('\n')}
)
_wsctl_walk=(
${walk.join('\n')}
)
_wsctl_opts=(
${opts.join('\n')}
)
_wsctl_vals=(
${vals.join('\n')}
)
_wsctl_args=(
${args.join('\n')}
)

_wsctl_values() {
  case $1 in
    words:*) compadd -- \${=\${1#words:}} ;;
    files) _files ;;
    profiles) compadd -- \${(f)"$(wsctl __complete profiles 2>/dev/null)"} ;;
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
    _describe -t commands 'command' entries
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
