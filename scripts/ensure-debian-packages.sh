#!/usr/bin/env bash
# Installs each package of scripts/debian-packages.txt whose probe (a command, or py:module for
# /usr/bin/python3) is missing. The probe keeps a warm machine from calling apt at all.
set -euo pipefail
cd "$(dirname "$0")/.."
missing=()
while read -r pkg probe; do
  [[ -z "$pkg" || "$pkg" == \#* ]] && continue
  if [[ "$probe" == py:* ]]; then
    /usr/bin/python3 -c "import ${probe#py:}" 2>/dev/null || missing+=("$pkg")
  elif [[ "$probe" == file:* ]]; then
    [ -e "${probe#file:}" ] || missing+=("$pkg")
  else
    command -v "$probe" >/dev/null 2>&1 || missing+=("$pkg")
  fi
done < scripts/debian-packages.txt
if ((${#missing[@]})); then
  echo "installing Debian packages: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
