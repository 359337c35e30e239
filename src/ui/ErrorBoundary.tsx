// A render error in one panel shows a message in that panel instead of blanking the page.
import { Component, type ReactNode } from 'react';

interface Props {
  name: string;
  children: ReactNode;
  resetKey?: unknown;
}
interface State {
  error: Error | null;
  resetKey?: unknown;
}

export class PanelBoundary extends Component<Props, State> {
  state: State = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: Error): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    // New data (another timeline, another step) gets a fresh try.
    return props.resetKey !== state.resetKey ? { error: null, resetKey: props.resetKey } : null;
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <div className="panel" role="alert" style={{ padding: 10 }}>
        <b>The {this.props.name} could not be drawn.</b>
        <span className="error-text mono">{this.state.error.message}</span>
        <span className="muted">Your work is saved; editing or picking another step tries again.</span>
      </div>
    );
  }
}
