/** Literal model outputs quoted in the case studies (/work/shared/case-studies), used as golden tests. */

/** 000: the output the write-up expects once the prompt lists full tool details. */
export const CASE_000_EXPECTED = `<tool_call>
{
  "id": "call_001",
  "tool_name": "read_data_from_excel",
  "arguments": {
    "filepath": "test.xlsx",
    "sheet_name": "Sheet1"
  }
}
</tool_call>`;

/** 000: with names only, the model answers in prose; the write-up's own hint text mentions the args inline. */
export const CASE_000_PROSE =
  '我可以帮你读取 test.xlsx 的 Sheet1 工作表。不过我不知道 read_data_from_excel 需要哪些参数，' +
  '你可以使用read_data_from_excel工具,参数为{"filepath": "test.xlsx", "sheet_name": "Sheet1"}。';

/** 001: the call wrapped in a ```tool_call fence (log "Current text preview"). */
export const CASE_001_FENCED = `好的，没问题！要查看 \`myfile.xlsx\` 文件的内容，
我需要使用 \`read_data_from_excel\` 工具来读取文件中的数据。

\`\`\`tool_call
{
  "id": "call_001",
  "tool_name": "read_data_from_excel",
  "arguments": {
    "filepath": "myfile.xlsx",
    "sheet_name": "Sheet1",
    "start_cell": "A1"
  }
}
\`\`\`
`;

/** 002: the call followed by "(等待工具返回结果...)" and no answer (the write-up elides arguments with "..."). */
export const CASE_002_STOPPED = `现在需要查看myfile.xlsx文件内容。让我使用Excel工具来读取文件数据：

<tool_call>
{
  "id": "call_001",
  "tool_name": "read_data_from_excel",
  ...
}
</tool_call>

读取Excel文件第一个工作表的A1到Z100范围数据。如果文件存在且格式正确，稍后将展示文件内容；如果出现读取错误请及时反馈。

(等待工具返回结果...)`;

/** 002: the tool result the write-up shows ("Sheet1: A1=名称, B1=数量..."). */
export const CASE_002_RESULT = 'Sheet1: A1=名称, B1=数量...';

/** 002: the answer the write-up expects after the multi-turn fix. */
export const CASE_002_ANSWER = `根据读取的数据，这个 Excel 文件包含以下内容：
- Sheet1 有两列：名称和数量
- 第一行是标题行`;
