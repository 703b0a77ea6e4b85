// fish completion: a function that finds the command path in the command line, then one
// `complete` line per subcommand, flag and argument.
import { quote, type OptionSpec, type Tree, type Values } from './tree.js';

function valueArgs(values: Values | undefined): string {
  if (!values) return '';
  switch (values.kind) {
    case 'choices':
      return ` -x -a ${quote(values.values.join(' '))}`;
    case 'files':
      return ' -r -F';
    case 'profiles':
      return ` -x -a ${quote('(wsctl __complete profiles 2>/dev/null)')}`;
    case 'ids':
      return ` -x -k -a ${quote(`(__wsctl_ids ${values.of})`)}`;
    default:
      return ' -x';
  }
}

function optionLine(option: OptionSpec, condition: string): string {
  const flags = option.flags.map((f) => (f.startsWith('--') ? ` -l ${f.slice(2)}` : ` -s ${f.slice(1)}`)).join('');
  return `complete -c wsctl${condition}${flags}${valueArgs(option.value)} -d ${quote(option.description)}`;
}

export function fishScript(tree: Tree): string {
  const walk: string[] = [];
  const valued: string[] = [];
  const lines: string[] = [];
  for (const option of tree.globals) {
    lines.push(optionLine(option, ''));
    if (option.value) valued.push(...option.flags);
  }
  // Aliases complete like commands, read from config.json when asked.
  lines.push(`complete -c wsctl -n ${quote("__wsctl_at 'wsctl'")} -a ${quote('(wsctl __complete aliases 2>/dev/null)')} -d alias`);
  for (const node of tree.nodes) {
    const at = ` -n ${quote(`__wsctl_at '${node.path}'`)}`;
    for (const sub of node.subcommands) {
      lines.push(`complete -c wsctl${at} -a ${quote(sub.name)} -d ${quote(sub.description)}`);
      for (const word of [sub.name, ...sub.aliases]) walk.push(quote(`${node.path}|${word}=${node.path} ${sub.name}`));
    }
    for (const option of node.options) {
      lines.push(optionLine(option, ` -n ${quote(`__wsctl_in '${node.path}'`)}`));
      if (option.value) valued.push(...option.flags.map((f) => `${node.path}|${f}`));
    }
    if (node.argument && node.argument.kind !== 'any' && !node.idArgs[0]) lines.push(`complete -c wsctl${at}${valueArgs(node.argument)}`);
    node.idArgs.forEach((kind, i) => {
      if (kind) lines.push(`complete -c wsctl -n ${quote(`__wsctl_arg '${node.path}' ${i}`)}${valueArgs({ kind: 'ids', of: kind })}`);
    });
  }
  walk.push(quote(`wsctl|help=wsctl help`));
  return `# fish completion for wsctl. Generated from the command tree by \`npm run completions\`; do not edit.
# Install: wsctl completion fish > ~/.config/fish/completions/wsctl.fish

set -g __wsctl_walk ${walk.join(' ')}
set -g __wsctl_valued ${valued.map(quote).join(' ')}

# Prints the command path of the line so far ("wsctl keys create") and how many arguments follow it.
function __wsctl_path
    set -l cmdpath wsctl
    set -l positional 0
    set -l skip 0
    for word in (commandline -opc)[2..-1]
        if test $skip -eq 1
            set skip 0
            continue
        end
        if string match -q -- '-*' $word
            if not string match -q -- '*=*' $word; and begin; contains -- $word $__wsctl_valued; or contains -- "$cmdpath|$word" $__wsctl_valued; end
                set skip 1
            end
            continue
        end
        set -l next
        if test $positional -eq 0
            for entry in $__wsctl_walk
                if string match -q -- "$cmdpath|$word=*" $entry
                    set next (string replace -- "$cmdpath|$word=" '' $entry)
                    break
                end
            end
        end
        if test -n "$next"
            set cmdpath $next
        else
            set positional (math $positional + 1)
        end
    end
    echo $cmdpath
    echo $positional
end

# True at the given command with no argument typed yet.
function __wsctl_at
    set -l state (__wsctl_path)
    test "$state[1]" = "$argv[1]"; and test "$state[2]" -eq 0
end

# True at the given command with this many arguments typed before the one being completed.
function __wsctl_arg
    set -l state (__wsctl_path)
    test "$state[1]" = "$argv[1]"; and test "$state[2]" -eq $argv[2]
end

# The ids remembered of a kind for the workspace the line names (id, tab, description), most recent first.
function __wsctl_ids
    wsctl __complete ids $argv[1] -- (commandline -opc)[2..-1] 2>/dev/null | string match -r -- '^[A-Za-z0-9._:@+][A-Za-z0-9._:@+-]*(?:\t.*)?$'
end

# True anywhere within the given command.
function __wsctl_in
    set -l state (__wsctl_path)
    test "$state[1]" = "$argv[1]"
end

complete -c wsctl -f
${lines.join('\n')}
`;
}
