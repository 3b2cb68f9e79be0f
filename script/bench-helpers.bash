# Shell functions shared by script/bench and script/bench-limits (sourced, not run):
# waiting for a server to say where it listens, stopping a process, and seeding users and
# dreams over HTTP with curl and jq, the same way for every benchmark that compares them.

# Prints the http://127.0.0.1:PORT a server wrote to FILE as "listening on …", waiting up to
# TENTHS tenths of a second while PID lives; prints nothing if it never did.
wait_for_url() { # file pid tenths
    local found=""
    for _ in $(seq "$3"); do
        found=$(grep -o 'listening on http://127\.0\.0\.1:[0-9]*' "$1" | sed 's/^listening on //') || true
        if [[ -n $found ]] || ! kill -0 "$2" 2>/dev/null; then break; fi
        sleep 0.1
    done
    [[ -z $found ]] || echo "$found"
}

# Asks PID to stop (SIGTERM), gives it TENTHS tenths of a second, then kills it; reaps it.
stop_pid() { # pid tenths
    kill "$1" 2>/dev/null || true
    for _ in $(seq "$2"); do
        kill -0 "$1" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
}

random_hex() { od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'; }

register() { # url; prints a new user's token
    local body
    body=$(printf '{"username":"bench%s","password":"%s"}' "$(random_hex 6)" "$(random_hex 12)")
    curl -fsS --max-time 30 -H 'Content-Type: application/json' -d "$body" "$1/v1/users" | jq -er .token
}

dream_count() { # url token
    curl -fsS --max-time 30 -H "Authorization: Bearer $2" "$1/v1/dreams?limit=50" | jq -er '.items | length'
}

# One seed dream's body, the i-th of a journal (the same i, the same dream).
seed_dream() { # i
    local creatures=('{"kind":"unicorn","color":"pink"}' '{"kind":"unicorn","color":"white"}'
        '{"kind":"unicorn","color":"yellow"}' '{"kind":"crusty"}' '{"kind":"shark"}' '{"kind":"dragon"}')
    local effects=('[]' '["snow","magic"]' '["rain"]' '["fireflies","laserFocus"]' '["fireBreathing"]')
    printf '{"description":"%s","creature":%s,"effects":%s,"numberOfCreatures":%d,"dreamtOn":"2026-%02d-%02d"}' \
        "Seed dream $1. I was back at my old school, but the corridors went on for miles and every door opened onto a beach at night. A dragon sat in the headmaster's chair reading my homework aloud, and the whole class laughed when it reached the part about the moon. Then it began to snow indoors and I woke up." \
        "${creatures[$1 % 6]}" "${effects[$1 % 5]}" $(($1 % 9 + 1)) $(($1 % 12 + 1)) $(($1 % 28 + 1))
}

add_dreams() { # url token count
    local i
    for ((i = 1; i <= $3; i++)); do
        curl -fsS --max-time 30 -o /dev/null -H "Authorization: Bearer $2" -H 'Content-Type: application/json' \
            -d "$(seed_dream "$i")" "$1/v1/dreams"
    done
}
