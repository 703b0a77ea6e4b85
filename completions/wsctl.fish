# fish completion for wsctl. Generated from the command tree by `npm run completions`; do not edit.
# Install: wsctl completion fish > ~/.config/fish/completions/wsctl.fish

set -g __wsctl_walk 'wsctl|auth=wsctl auth' 'wsctl|profile=wsctl profile' 'wsctl|keys=wsctl keys' 'wsctl|settings=wsctl settings' 'wsctl|caps=wsctl caps' 'wsctl|convo=wsctl convo' 'wsctl|notes=wsctl notes' 'wsctl|conn=wsctl conn' 'wsctl|byok=wsctl byok' 'wsctl|device=wsctl device' 'wsctl|persona=wsctl persona' 'wsctl|pub=wsctl pub' 'wsctl|site=wsctl site' 'wsctl|mcp=wsctl mcp' 'wsctl|skill=wsctl skill' 'wsctl|ids=wsctl ids' 'wsctl|api=wsctl api' 'wsctl|alias=wsctl alias' 'wsctl|completion=wsctl completion' 'wsctl|sandbox=wsctl sandbox' 'wsctl auth|login=wsctl auth login' 'wsctl auth|status=wsctl auth status' 'wsctl auth|switch=wsctl auth switch' 'wsctl auth|token=wsctl auth token' 'wsctl auth|logout=wsctl auth logout' 'wsctl profile|list=wsctl profile list' 'wsctl profile|ls=wsctl profile list' 'wsctl profile|use=wsctl profile use' 'wsctl profile|pin=wsctl profile pin' 'wsctl profile|unpin=wsctl profile unpin' 'wsctl profile|agents=wsctl profile agents' 'wsctl profile|rm=wsctl profile rm' 'wsctl profile|remove=wsctl profile rm' 'wsctl keys|create=wsctl keys create' 'wsctl keys|list=wsctl keys list' 'wsctl keys|ls=wsctl keys list' 'wsctl convo|show=wsctl convo show' 'wsctl notes|import=wsctl notes import' 'wsctl conn|set-permission=wsctl conn set-permission' 'wsctl conn|rm=wsctl conn rm' 'wsctl conn|remove=wsctl conn rm' 'wsctl byok|add=wsctl byok add' 'wsctl device|rm=wsctl device rm' 'wsctl device|remove=wsctl device rm' 'wsctl persona|versions=wsctl persona versions' 'wsctl persona|upload-avatar=wsctl persona upload-avatar' 'wsctl pub|rm=wsctl pub rm' 'wsctl pub|remove=wsctl pub rm' 'wsctl site|create=wsctl site create' 'wsctl mcp|config=wsctl mcp config' 'wsctl mcp|install=wsctl mcp install' 'wsctl mcp|uninstall=wsctl mcp uninstall' 'wsctl skill|install=wsctl skill install' 'wsctl skill|uninstall=wsctl skill uninstall' 'wsctl ids|forget=wsctl ids forget' 'wsctl alias|set=wsctl alias set' 'wsctl alias|list=wsctl alias list' 'wsctl alias|ls=wsctl alias list' 'wsctl alias|rm=wsctl alias rm' 'wsctl alias|remove=wsctl alias rm' 'wsctl sandbox|serve=wsctl sandbox serve' 'wsctl sandbox|stop=wsctl sandbox stop' 'wsctl sandbox|reset=wsctl sandbox reset' 'wsctl|help=wsctl help'
set -g __wsctl_valued '--profile' '--base-url' '--timeout' '--jq' 'wsctl keys create|--save-as' 'wsctl convo show|--tail' 'wsctl convo show|--interval' 'wsctl notes import|--title' 'wsctl notes import|--to' 'wsctl notes import|--account' 'wsctl byok add|--name' 'wsctl byok add|--provider-url' 'wsctl byok add|--format' 'wsctl byok add|--model' 'wsctl site create|--variant' 'wsctl site create|--parent' 'wsctl site create|--display-name' 'wsctl mcp|--upload-dir' 'wsctl mcp config|--client' 'wsctl mcp config|--upload-dir' 'wsctl mcp install|--client' 'wsctl mcp install|--config' 'wsctl mcp install|--upload-dir' 'wsctl mcp uninstall|--client' 'wsctl mcp uninstall|--config' 'wsctl skill install|--agent' 'wsctl skill install|--scope' 'wsctl skill uninstall|--agent' 'wsctl skill uninstall|--scope' 'wsctl api|-X' 'wsctl api|--method' 'wsctl api|-f' 'wsctl api|--field' 'wsctl api|--input' 'wsctl sandbox serve|--port' 'wsctl sandbox serve|--host' 'wsctl sandbox serve|--state'

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
    wsctl __complete ids $argv[1] -- (commandline -opc)[2..-1] 2>/dev/null | string match -r -- '^[A-Za-z0-9._:@+][A-Za-z0-9._:@+-]*(?:	.*)?$'
end

# True anywhere within the given command.
function __wsctl_in
    set -l state (__wsctl_path)
    test "$state[1]" = "$argv[1]"
end

complete -c wsctl -f
complete -c wsctl -s V -l version -d 'print the version'
complete -c wsctl -l profile -x -a '(wsctl __complete profiles 2>/dev/null)' -d 'config profile to use (env: WSCTL_PROFILE)'
complete -c wsctl -l base-url -x -d 'service base URL (env: WSCTL_BASE_URL)'
complete -c wsctl -l json -d 'print machine-readable JSON'
complete -c wsctl -l no-color -d 'turn colour off (env: NO_COLOR, CLICOLOR=0; TERM=dumb has none)'
complete -c wsctl -l debug -d 'trace HTTP exchanges on stderr, secrets redacted (env: WSCTL_DEBUG=1)'
complete -c wsctl -l timeout -x -d 'longest wait without progress, per attempt (env: WSCTL_TIMEOUT, default 30)'
complete -c wsctl -l dry-run -d 'print the request instead of sending it'
complete -c wsctl -l sandbox -d 'run against the embedded sandbox (env: WSCTL_SANDBOX=1)'
complete -c wsctl -l jq -x -d 'filter the JSON output with a jq expression (implies --json)'
complete -c wsctl -l no-input -d 'never prompt; fail naming the flag that answers instead (env: WSCTL_NO_INPUT=1)'
complete -c wsctl -s h -l help -d 'show help'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a '(wsctl __complete aliases 2>/dev/null)' -d alias
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'auth' -d 'Log in, check and forget API keys'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'profile' -d 'List, switch and delete config profiles'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'keys' -d 'Create and list the workspace'\''s API keys'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'settings' -d 'Show the user'\''s settings'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'caps' -d 'Show the workspace capabilities: text numbers, e-mail addresses, connected apps, prompts'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'convo' -d 'Read conversations'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'notes' -d 'Import pages from the connected note-taking app'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'conn' -d 'Change or remove connections to third-party apps'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'byok' -d 'Register bring-your-own-model configurations'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'device' -d 'Manage registered devices'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'persona' -d 'Published versions and avatars of personas'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'pub' -d 'Manage published conversations'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'site' -d 'Create websites in the workspace'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'mcp' -d 'Serve the workspace to AI agents as MCP tools over stdin/stdout (Model Context Protocol)'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'skill' -d 'Print wsctl'\''s agent skill: SKILL.md, which tells an AI agent how to use wsctl'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'ids' -d 'List the ids wsctl remembers for the profile in effect (for completion and choosing)'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'api' -d 'Send an authenticated request to any path and print the response body'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'alias' -d 'Name a command line: set, list and remove aliases'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'completion' -d 'Print the completion script for a shell'
complete -c wsctl -n '__wsctl_at '\''wsctl'\''' -a 'sandbox' -d 'Run or reset the local sandbox service'
complete -c wsctl -n '__wsctl_at '\''wsctl auth'\''' -a 'login' -d 'Store an API key and the base URL in effect in the profile; on a terminal it asks for what is missing (the base URL, then the key, input hidden)'
complete -c wsctl -n '__wsctl_at '\''wsctl auth'\''' -a 'status' -d 'Show the active profile (and where it came from), its base URL and key, and whether the service accepts the key'
complete -c wsctl -n '__wsctl_at '\''wsctl auth'\''' -a 'switch' -d 'Make a profile current, as `profile use` does; without a name, on a terminal, choose it from a list'
complete -c wsctl -n '__wsctl_at '\''wsctl auth'\''' -a 'token' -d 'Print the active API key and a newline, for scripts: WSCTL_API_KEY=$(wsctl auth token)'
complete -c wsctl -n '__wsctl_at '\''wsctl auth'\''' -a 'logout' -d 'Forget the profile'\''s stored key, in the credential store and in the file (the base URL stays)'
complete -c wsctl -n '__wsctl_in '\''wsctl auth login'\''' -l with-key -d 'read the key from standard input (first line)'
complete -c wsctl -n '__wsctl_in '\''wsctl auth login'\''' -l no-verify -d 'save without checking the key with the service'
complete -c wsctl -n '__wsctl_in '\''wsctl auth login'\''' -l insecure-storage -d 'store the key in config.json instead of the OS credential store'
complete -c wsctl -n '__wsctl_in '\''wsctl auth status'\''' -l all -d 'check every profile at once, each with its own timeout'
complete -c wsctl -n '__wsctl_at '\''wsctl auth switch'\''' -x -a '(wsctl __complete profiles 2>/dev/null)'
complete -c wsctl -n '__wsctl_in '\''wsctl auth logout'\''' -l all -d 'forget every profile'\''s key'
complete -c wsctl -n '__wsctl_at '\''wsctl profile'\''' -a 'list' -d 'List profiles with their base URLs, whether a key is stored, and what AI agents may do'
complete -c wsctl -n '__wsctl_at '\''wsctl profile'\''' -a 'use' -d 'Make a profile the current one'
complete -c wsctl -n '__wsctl_at '\''wsctl profile'\''' -a 'pin' -d 'Pin a profile to this folder and every folder below it: writes .wsctl-profile holding its name'
complete -c wsctl -n '__wsctl_at '\''wsctl profile'\''' -a 'unpin' -d 'Remove this folder'\''s pin (.wsctl-profile); a pin in a folder above still applies'
complete -c wsctl -n '__wsctl_at '\''wsctl profile'\''' -a 'agents' -d 'Set what AI agents may do with a profile: full, no-destructive or read-only'
complete -c wsctl -n '__wsctl_at '\''wsctl profile'\''' -a 'rm' -d 'Delete a profile and its stored key'
complete -c wsctl -n '__wsctl_at '\''wsctl profile use'\''' -x -a '(wsctl __complete profiles 2>/dev/null)'
complete -c wsctl -n '__wsctl_at '\''wsctl profile pin'\''' -x -a '(wsctl __complete profiles 2>/dev/null)'
complete -c wsctl -n '__wsctl_at '\''wsctl profile rm'\''' -x -a '(wsctl __complete profiles 2>/dev/null)'
complete -c wsctl -n '__wsctl_at '\''wsctl keys'\''' -a 'create' -d 'Create an API key; its secret is shown once'
complete -c wsctl -n '__wsctl_at '\''wsctl keys'\''' -a 'list' -d 'List API keys (metadata only, never a secret)'
complete -c wsctl -n '__wsctl_in '\''wsctl keys create'\''' -l save-as -x -d 'also store the new key, with the base URL in effect, as this profile'
complete -c wsctl -n '__wsctl_in '\''wsctl keys create'\''' -l force -d 'with --save-as, replace an existing profile of that name'
complete -c wsctl -n '__wsctl_in '\''wsctl keys create'\''' -l insecure-storage -d 'with --save-as, store the key in config.json instead of the OS credential store'
complete -c wsctl -n '__wsctl_at '\''wsctl convo'\''' -a 'show' -d 'Show a conversation: header, transcript, token totals'
complete -c wsctl -n '__wsctl_in '\''wsctl convo show'\''' -l tail -x -d 'only the last n messages'
complete -c wsctl -n '__wsctl_in '\''wsctl convo show'\''' -l markdown -d 'print the transcript as Markdown'
complete -c wsctl -n '__wsctl_in '\''wsctl convo show'\''' -l full -d 'do not shorten long tool results'
complete -c wsctl -n '__wsctl_in '\''wsctl convo show'\''' -l no-pager -d 'do not page the output on a terminal'
complete -c wsctl -n '__wsctl_in '\''wsctl convo show'\''' -s f -l follow -d 'while the conversation runs, print each message as it completes (never paged)'
complete -c wsctl -n '__wsctl_in '\''wsctl convo show'\''' -l interval -x -d 'with --follow, seconds between polls (default 2, at least 0.5)'
complete -c wsctl -n '__wsctl_arg '\''wsctl convo show'\'' 0' -x -k -a '(__wsctl_ids conversation)'
complete -c wsctl -n '__wsctl_at '\''wsctl notes'\''' -a 'import' -d 'Import a page as markdown into the workspace; prints the created file name'
complete -c wsctl -n '__wsctl_in '\''wsctl notes import'\''' -l title -x -d 'title of the imported file'
complete -c wsctl -n '__wsctl_in '\''wsctl notes import'\''' -l to -x -d 'folder to import into, split on /'
complete -c wsctl -n '__wsctl_in '\''wsctl notes import'\''' -l account -x -k -a '(__wsctl_ids account)' -d 'the connected account to read the page from (`wsctl caps` shows them)'
complete -c wsctl -n '__wsctl_at '\''wsctl conn'\''' -a 'set-permission' -d 'Change a connection'\''s permission'
complete -c wsctl -n '__wsctl_at '\''wsctl conn'\''' -a 'rm' -d 'Remove a connection to a third-party app; asks to confirm on a terminal, else needs --yes'
complete -c wsctl -n '__wsctl_arg '\''wsctl conn set-permission'\'' 0' -x -k -a '(__wsctl_ids app)'
complete -c wsctl -n '__wsctl_arg '\''wsctl conn set-permission'\'' 1' -x -k -a '(__wsctl_ids connection)'
complete -c wsctl -n '__wsctl_in '\''wsctl conn rm'\''' -s y -l yes -d 'do not ask for confirmation'
complete -c wsctl -n '__wsctl_arg '\''wsctl conn rm'\'' 0' -x -k -a '(__wsctl_ids app)'
complete -c wsctl -n '__wsctl_arg '\''wsctl conn rm'\'' 1' -x -k -a '(__wsctl_ids connection)'
complete -c wsctl -n '__wsctl_at '\''wsctl byok'\''' -a 'add' -d 'Register a model provider; its key comes from stdin, WSCTL_BYOK_API_KEY, or a hidden prompt on a terminal'
complete -c wsctl -n '__wsctl_in '\''wsctl byok add'\''' -l name -x -d 'a name for the configuration (required)'
complete -c wsctl -n '__wsctl_in '\''wsctl byok add'\''' -l provider-url -x -d 'base URL of the model provider, http or https (required)'
complete -c wsctl -n '__wsctl_in '\''wsctl byok add'\''' -l format -x -a 'openai anthropic groq' -d 'API format of the provider (required)'
complete -c wsctl -n '__wsctl_in '\''wsctl byok add'\''' -l model -x -d 'model id at the provider (required)'
complete -c wsctl -n '__wsctl_in '\''wsctl byok add'\''' -l api-key-stdin -d 'read the provider key from standard input (first line; on a terminal, asked with input hidden)'
complete -c wsctl -n '__wsctl_in '\''wsctl byok add'\''' -l show-secret -d 'show the provider key in the output'
complete -c wsctl -n '__wsctl_at '\''wsctl device'\''' -a 'rm' -d 'Remove a registered device; asks to confirm on a terminal, else needs --yes'
complete -c wsctl -n '__wsctl_in '\''wsctl device rm'\''' -s y -l yes -d 'do not ask for confirmation'
complete -c wsctl -n '__wsctl_at '\''wsctl persona'\''' -a 'versions' -d 'List the published versions of a persona'
complete -c wsctl -n '__wsctl_at '\''wsctl persona'\''' -a 'upload-avatar' -d 'Upload a PNG, JPEG, GIF or WebP image (at most 10 MiB) as a persona avatar; prints its URL'
complete -c wsctl -n '__wsctl_arg '\''wsctl persona versions'\'' 0' -x -k -a '(__wsctl_ids persona)'
complete -c wsctl -n '__wsctl_at '\''wsctl persona upload-avatar'\''' -r -F
complete -c wsctl -n '__wsctl_at '\''wsctl pub'\''' -a 'rm' -d 'Unpublish a published conversation; asks to confirm on a terminal, else needs --yes'
complete -c wsctl -n '__wsctl_in '\''wsctl pub rm'\''' -s y -l yes -d 'do not ask for confirmation'
complete -c wsctl -n '__wsctl_at '\''wsctl site'\''' -a 'create' -d 'Create a website in the workspace'
complete -c wsctl -n '__wsctl_in '\''wsctl site create'\''' -l variant -x -a 'blank blog event slides data marketing' -d 'starting template'
complete -c wsctl -n '__wsctl_in '\''wsctl site create'\''' -l parent -x -d 'folder to create it in, split on /'
complete -c wsctl -n '__wsctl_in '\''wsctl site create'\''' -l force -d 'replace a site of the same name'
complete -c wsctl -n '__wsctl_in '\''wsctl site create'\''' -l display-name -x -d 'the name shown to visitors'
complete -c wsctl -n '__wsctl_at '\''wsctl mcp'\''' -a 'config' -d 'Print the entry an MCP client needs to start wsctl mcp, in that client'\''s shape (JSON, or TOML for Codex)'
complete -c wsctl -n '__wsctl_at '\''wsctl mcp'\''' -a 'install' -d 'Put wsctl'\''s MCP server into a client'\''s config file, then start it and list its tools'
complete -c wsctl -n '__wsctl_at '\''wsctl mcp'\''' -a 'uninstall' -d 'Remove wsctl'\''s MCP server from a client'\''s config file, keeping everything else'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp'\''' -l read-only -d 'offer only the tools that read'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp'\''' -l allow-destructive -d 'also offer the tools that remove (conn_rm, device_rm, pub_rm); the force argument that replaces (keys_create, site_create) is offered without it, and a person confirms each call that passes it (unless --no-confirm); a no-destructive agent policy refuses it'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp'\''' -l show-secrets -d 'return the key made by keys_create in full, not masked'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp'\''' -l no-confirm -d 'run the calls a person must otherwise confirm without asking anyone: removals, widening access, replacing, and every call of byok_add and persona_upload_avatar; for an unattended agent set up on purpose'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp'\''' -l upload-dir -x -d 'a folder persona_upload_avatar may read files from, besides the working folder (a working folder that is / or the home folder confines nothing: there only --upload-dir folders count)'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp config'\''' -l client -x -a 'claude-desktop claude-code cursor vscode windsurf zed codex gemini-cli opencode' -d 'the MCP client'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp config'\''' -l read-only -d 'offer only the tools that read'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp config'\''' -l allow-destructive -d 'also offer the tools that remove (conn_rm, device_rm, pub_rm); the force argument that replaces (keys_create, site_create) is offered without it, and a person confirms each call that passes it (unless --no-confirm); a no-destructive agent policy refuses it'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp config'\''' -l show-secrets -d 'return the key made by keys_create in full, not masked'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp config'\''' -l no-confirm -d 'run the calls a person must otherwise confirm without asking anyone: removals, widening access, replacing, and every call of byok_add and persona_upload_avatar; for an unattended agent set up on purpose'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp config'\''' -l upload-dir -x -d 'a folder persona_upload_avatar may read files from, besides the working folder (a working folder that is / or the home folder confines nothing: there only --upload-dir folders count)'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp install'\''' -l client -x -a 'claude-desktop claude-code cursor vscode windsurf zed codex gemini-cli opencode' -d 'the MCP client whose config file to change'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp install'\''' -l config -x -d 'the config file to change (default: the client'\''s usual one on this platform)'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp install'\''' -l read-only -d 'offer only the tools that read'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp install'\''' -l allow-destructive -d 'also offer the tools that remove (conn_rm, device_rm, pub_rm); the force argument that replaces (keys_create, site_create) is offered without it, and a person confirms each call that passes it (unless --no-confirm); a no-destructive agent policy refuses it'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp install'\''' -l show-secrets -d 'return the key made by keys_create in full, not masked'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp install'\''' -l no-confirm -d 'run the calls a person must otherwise confirm without asking anyone: removals, widening access, replacing, and every call of byok_add and persona_upload_avatar; for an unattended agent set up on purpose'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp install'\''' -l upload-dir -x -d 'a folder persona_upload_avatar may read files from, besides the working folder (a working folder that is / or the home folder confines nothing: there only --upload-dir folders count)'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp uninstall'\''' -l client -x -a 'claude-desktop claude-code cursor vscode windsurf zed codex gemini-cli opencode' -d 'the MCP client whose config file to change'
complete -c wsctl -n '__wsctl_in '\''wsctl mcp uninstall'\''' -l config -x -d 'the config file to change (default: the client'\''s usual one on this platform)'
complete -c wsctl -n '__wsctl_at '\''wsctl skill'\''' -a 'install' -d 'Write wsctl'\''s agent skill where Claude Code or Codex looks for skills'
complete -c wsctl -n '__wsctl_at '\''wsctl skill'\''' -a 'uninstall' -d 'Remove the agent skill wsctl installed, and nothing else'
complete -c wsctl -n '__wsctl_in '\''wsctl skill install'\''' -l agent -x -a 'claude-code codex' -d 'the agent whose skills folder to use'
complete -c wsctl -n '__wsctl_in '\''wsctl skill install'\''' -l scope -x -a 'user project' -d 'user: your home folder, for every project; project: the current folder, for this project alone'
complete -c wsctl -n '__wsctl_in '\''wsctl skill install'\''' -l force -d 'replace a SKILL.md there that wsctl did not write, or that was changed since'
complete -c wsctl -n '__wsctl_in '\''wsctl skill uninstall'\''' -l agent -x -a 'claude-code codex' -d 'the agent whose skills folder to use'
complete -c wsctl -n '__wsctl_in '\''wsctl skill uninstall'\''' -l scope -x -a 'user project' -d 'user: your home folder, for every project; project: the current folder, for this project alone'
complete -c wsctl -n '__wsctl_at '\''wsctl ids'\''' -a 'forget' -d 'Forget remembered ids: all of them, one kind, or one id'
complete -c wsctl -n '__wsctl_at '\''wsctl ids'\''' -x -a 'conversation persona app connection account'
complete -c wsctl -n '__wsctl_at '\''wsctl ids forget'\''' -x -a 'conversation persona app connection account'
complete -c wsctl -n '__wsctl_in '\''wsctl api'\''' -s X -l method -x -d 'HTTP method (default GET, or POST with -f or --input)'
complete -c wsctl -n '__wsctl_in '\''wsctl api'\''' -s f -l field -x -d 'add a string field to the JSON body, or to the query string with GET and DELETE (repeatable)'
complete -c wsctl -n '__wsctl_in '\''wsctl api'\''' -l input -r -F -d 'send the file as the request body (- for stdin)'
complete -c wsctl -n '__wsctl_in '\''wsctl api'\''' -s y -l yes -d 'do not ask for confirmation'
complete -c wsctl -n '__wsctl_at '\''wsctl alias'\''' -a 'set' -d 'Name a command line: `wsctl <name> …` then runs `wsctl <expansion> …`'
complete -c wsctl -n '__wsctl_at '\''wsctl alias'\''' -a 'list' -d 'List the aliases and what they expand to'
complete -c wsctl -n '__wsctl_at '\''wsctl alias'\''' -a 'rm' -d 'Remove an alias'
complete -c wsctl -n '__wsctl_at '\''wsctl completion'\''' -x -a 'bash zsh fish'
complete -c wsctl -n '__wsctl_at '\''wsctl sandbox'\''' -a 'serve' -d 'Run the sandbox as a server until interrupted; prints its URL and key first'
complete -c wsctl -n '__wsctl_at '\''wsctl sandbox'\''' -a 'stop' -d 'Stop the server that `sandbox serve --detach` started (exit 0 also when none runs)'
complete -c wsctl -n '__wsctl_at '\''wsctl sandbox'\''' -a 'reset' -d 'Restore the embedded sandbox'\''s seeded state'
complete -c wsctl -n '__wsctl_in '\''wsctl sandbox serve'\''' -l port -x -d 'port to listen on (0 picks a free one; default: the previous server'\''s port when free, so logged-in profiles keep working)'
complete -c wsctl -n '__wsctl_in '\''wsctl sandbox serve'\''' -l host -x -d 'loopback address to listen on'
complete -c wsctl -n '__wsctl_in '\''wsctl sandbox serve'\''' -l state -r -F -d 'state file (default: the embedded sandbox state in the config dir)'
complete -c wsctl -n '__wsctl_in '\''wsctl sandbox serve'\''' -l detach -d 'leave the server running in the background and exit at once; one per config folder (stop it with `wsctl sandbox stop`)'
complete -c wsctl -n '__wsctl_at '\''wsctl help'\''' -x -a 'auth profile keys settings caps convo notes conn byok device persona pub site mcp skill ids api alias completion sandbox environment exit-codes formatting config'
