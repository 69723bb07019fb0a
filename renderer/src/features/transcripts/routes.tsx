export default function Screen() {
  return <div>transcripts</div>;
}
