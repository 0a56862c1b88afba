"""PyScript entry point: the engine and the browser package are unpacked beside this script."""

from cardtable_web.shell import main

main()
