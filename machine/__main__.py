from machine.cli import main

raise SystemExit(main())
