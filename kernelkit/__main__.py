import sys

from kernelkit.cli import main

sys.exit(main())
