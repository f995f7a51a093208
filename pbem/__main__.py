from pbem.cli import main

raise SystemExit(main())
