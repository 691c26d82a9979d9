"""Templates of `project-corpus init` and `new`, in English (`en/`) and Russian (`ru/`).

Each file is a `string.Template` (`$project_id`, `$name`, `$today`, `$now`, `$task_id`,
`$report_id`, `$task_line`). Keys and headings are protocol text and stay English in both
languages; the prose that tells the writer what each section is for is translated.
"""
