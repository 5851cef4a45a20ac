/* loom_cli.h */
